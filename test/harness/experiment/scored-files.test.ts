/**
 * `bench score` (scored-files.ts through the runner): the pairs file of an external detector's
 * run, scored again as a file produced elsewhere, gives that run's own measures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAdapters } from '../../../algorithms/registry.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { defaultVariantName, withScoredFiles } from '../../../harness/experiment/scored-files.ts';
import { isUserError } from '../../../harness/errors.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;
let config: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'scored-files-'));
  // A detector that is right about some pairs, wrong about others' scores, and reports some
  // pairs below min_score (which its run's pairs file leaves out).
  writeFileSync(
    join(root, 'some-pairs.sh'),
    'printf "doc_a,doc_b,score\\nb0,b0-edit,0.9\\nb0,b0-cut,0.4\\nb1,b1-edit,0.55\\nb2,list0,0.7\\nb3,list1,0.05\\nb3,b3-edit,0.6\\nb1,b2,0.3\\n" > "$1"\n',
  );
  config = join(root, 'c.yaml');
  writeFileSync(
    config,
    `experiment: scored
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: external
    name: some
    params: { program: some-pairs.sh, command: [sh, "{program}", "{output}"], score: resemblance, decisions: score-at-threshold }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.5] }
backend: { kind: local, workers: 1 }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function completed(p: ReturnType<typeof runExperiment>): Promise<{ dir: string; record: RunRecord }> {
  const out = await p;
  if (out.kind !== 'completed') throw new Error(out.kind);
  return out;
}

/** A variant's measures without the timings and the external reader's line counts. */
function comparable(rec: RunRecord, name: string): Record<string, unknown> {
  const v = rec.variants.find((x) => x.name === name);
  return Object.fromEntries(Object.entries(v?.measures ?? {}).filter(([k]) => !VARYING_COLUMNS.includes(k)));
}

describe('bench score', () => {
  it("gives an external run's own measures from its pairs file", async () => {
    const inside = await completed(runExperiment(runOptions(config, join(root, 'results'))));
    const adapters = await loadAdapters();
    const file = join(inside.dir, 'pairs', 'some.csv.gz');
    const scored = await completed(
      runExperiment(
        runOptions(config, join(root, 'results'), {
          reshape: (exp) => withScoredFiles(exp, adapters, { files: [file], declared: { format: 'pairs', score: 'resemblance', scoreFloor: 0, decisions: 'score-at-threshold' } }),
        }),
      ),
    );
    expect(scored.dir).not.toBe(inside.dir);
    expect(scored.record.variants.map((v) => v.name)).toEqual(['ground-truth', 'some']);
    const measures = comparable(inside.record, 'some');
    expect(measures.recall_pairs).toBeGreaterThan(0);
    expect(measures.avg_error).toBeGreaterThan(0);
    expect(comparable(scored.record, 'some')).toEqual(measures);
    // The pairs below min_score are not in the run's pairs file, and change no measure.
    expect(inside.record.variants[1]?.counters.external?.lines_read).toBe(7);
    expect(scored.record.variants[1]?.counters.external?.lines_read).toBe(6);
  });

  it('names a variant by its file and refuses what it cannot score', async () => {
    expect(defaultVariantName('/x/spark-run.csv.gz')).toBe('spark-run');
    const adapters = await loadAdapters();
    const declared = { format: 'pairs', score: 'none', scoreFloor: 0, decisions: 'every-reported-pair' } as const;
    const attempt = (files: string[], names?: string[]): Promise<unknown> =>
      runExperiment(runOptions(config, join(root, 'results'), { reshape: (exp) => withScoredFiles(exp, adapters, { files, declared, ...(names ? { names } : {}) }) })).catch((e: unknown) => e);
    const missing = await attempt([join(root, 'absent.csv')]);
    expect(isUserError(missing)).toBe(true);
    expect((missing as Error).message).toBe(`${join(root, 'absent.csv')}: no such file`);
    const sh = join(root, 'some-pairs.sh');
    expect((await attempt([sh, sh]) as Error).message).toBe(`${sh}: the variant name 'some-pairs.sh' is taken: give another with --name`);
    expect((await attempt([sh], ['ground-truth']) as Error).message).toBe(`${sh}: the variant name 'ground-truth' is taken: give another with --name`);
  });
});
