/**
 * The ground truth's run is saved before its evaluation (run-variants.ts keepResult): a failure
 * after its join leaves it in the checkpoint, the error says so, and `--resume` evaluates it
 * without running the join again, to the results of a run that never failed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keptNoteOf } from '../../../harness/errors.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

/** When set, the evaluation of the ground truth fails, as a bug in it would. */
const failing = vi.hoisted(() => ({ truth: false }));
vi.mock('../../../harness/evaluate/variant.ts', async (original) => {
  const real = await original<typeof import('../../../harness/evaluate/variant.ts')>();
  return {
    ...real,
    evaluateVariant: (args: Parameters<typeof real.evaluateVariant>[0]) => {
      if (failing.truth && args.truth === undefined) throw new Error('a bug in the evaluation');
      return real.evaluateVariant(args);
    },
  };
});

let root: string;
let config: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'truth-result-'));
  config = join(root, 'c.yaml');
  writeFileSync(
    config,
    [
      'experiment: small',
      `corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }`,
      'ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }',
      'runs:\n  - algorithm: broder\n    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: 4 } }',
      'evaluate: { threshold: 0.5, min_score: 0.3 }',
      'backend: { kind: local, workers: 1 }',
      '',
    ].join('\n'),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const metricsWithoutTimings = (dir: string): string => {
  // Fields split at commas outside quotes (variant names are quoted).
  const rows = readFileSync(join(dir, 'metrics.csv'), 'utf8').trim().split('\n').map((r) => r.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((f) => f.replace(/,$/, '')));
  const keep = (rows[0] as string[]).map((c) => !VARYING_COLUMNS.includes(c));
  return rows.map((r) => r.filter((_, i) => keep[i]).join(',')).join('\n');
};

describe('a failure after the ground truth’s join', () => {
  it('keeps its run, says so, and a resume evaluates it without joining again', async () => {
    const clean = await runExperiment(runOptions(config, join(root, 'clean'), { runId: 'r' }));
    if (clean.kind !== 'completed') throw new Error('expected a clean run');

    failing.truth = true;
    const failed = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'r', notice: () => {} })).catch((e: unknown) => e);
    failing.truth = false;
    expect((failed as Error).message).toBe('a bug in the evaluation');
    expect(keptNoteOf(failed)).toMatch(/^the ground truth's run, before its evaluation, is saved in .*\.resume-r; to finish the run: bench run .* --run-id r --resume$/);
    const checkpoint = join(root, 'out', 'small', '.resume-r');
    const [slot] = readdirSync(checkpoint).filter((f) => /^v\d+$/.test(f));
    const facts = JSON.parse(readFileSync(join(checkpoint, slot as string, 'facts.json'), 'utf8')) as { runtimeS: number };

    const resumed = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'r', earlier: { checkpoint: 'resume' } }));
    if (resumed.kind !== 'completed') throw new Error('expected a resumed run');
    // The join's own time, from the saved result: the join did not run again.
    expect(resumed.record.variants[0]?.measures.runtime_s).toBe(facts.runtimeS);
    expect(metricsWithoutTimings(resumed.dir)).toBe(metricsWithoutTimings(clean.dir));
    const pairsFiles = (readdirSync(join(clean.dir, 'pairs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.csv.gz'));
    expect(pairsFiles).toHaveLength(2);
    for (const f of pairsFiles) expect(readFileSync(join(resumed.dir, 'pairs', f))).toEqual(readFileSync(join(clean.dir, 'pairs', f)));
  });
});
