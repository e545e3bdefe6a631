/**
 * A variant's error step runs behind the next variants (harness/experiment/idle-lane.ts), and
 * never while a kernel runs, whose `cpu_s` and `runtime_s` are measured over the whole process.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { AlgorithmAdapter, Plan } from '../../../contract/index.ts';
import { builtinDetectors, type DetectorCatalog } from '../../../harness/detectors.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

const root = mkdtempSync(join(tmpdir(), 'run-variants-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const config = join(root, 'small.yaml');
writeFileSync(
  config,
  `experiment: small
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: [2, 4, 8] } }
evaluate: { threshold: 0.5, min_score: 0.1 }
backend: { kind: local, workers: 1 }
`,
);

/** Broder, its kernels and its explanations' evidence watched: when each ran. */
async function watchedBroder(events: string[]): Promise<{ catalog: DetectorCatalog; inKernel: () => boolean }> {
  const builtin = await builtinDetectors(['broder']);
  const broder = builtin.adapters.find((a) => a.name === 'broder') as AlgorithmAdapter;
  let kernels = 0;
  let running = false;
  const explain = broder.explain;
  if (!explain) throw new Error('broder explains its pairs');
  const watched: AlgorithmAdapter = {
    ...broder,
    plan: (params, ctx) => {
      const plan: Plan = broder.plan(params, ctx);
      const local = plan.local;
      if (!local) throw new Error('broder has a kernel');
      return {
        ...plan,
        local: {
          ...local,
          run: async (k) => {
            events.push(`kernel ${++kernels}`);
            running = true;
            try {
              // A kernel waits on the runtime's threads: this one leaves the main thread free a while.
              await new Promise((r) => setTimeout(r, 20));
              return await local.run(k);
            } finally {
              running = false;
            }
          },
        },
      };
    },
    explain: {
      ...explain,
      evidence: (params, q) => {
        const m = (params as { sampling?: { m?: number } }).sampling?.m;
        events.push(running ? 'evidence during a kernel' : `evidence of mod=${m} after kernel ${kernels}`);
        return explain.evidence(params, q);
      },
    },
  };
  return { catalog: { ...builtin, adapters: builtin.adapters.map((a) => (a.name === 'broder' ? watched : a)) }, inKernel: () => running };
}

describe('the error step', () => {
  it('runs behind the next variants, never during a kernel, and writes what it writes run alone', async () => {
    const events: string[] = [];
    const { catalog } = await watchedBroder(events);
    const run = await runExperiment(runOptions(config, join(root, 'watched'), { detectors: catalog }));
    if (run.kind !== 'completed') throw new Error('expected a completed run');
    expect(events).not.toContain('evidence during a kernel');
    // The ground truth's kernel, then one per variant: mod=2's errors are explained after mod=4's kernel has run.
    expect(events.filter((e) => e.startsWith('kernel'))).toEqual(['kernel 1', 'kernel 2', 'kernel 3', 'kernel 4']);
    const firstEvidence = events.findIndex((e) => e.startsWith('evidence'));
    expect(firstEvidence).toBeGreaterThan(events.indexOf('kernel 3'));
    // At most one variant's step behind: mod=2's is done before mod=8's kernel starts.
    const lastOfMod2 = events.findLastIndex((e) => e.startsWith('evidence of mod=2 '));
    expect(lastOfMod2).toBeGreaterThan(firstEvidence - 1);
    expect(lastOfMod2).toBeLessThan(events.indexOf('kernel 4'));
    // The same error files as each variant's errors explained alone, one run per variant.
    for (const m of [2, 4, 8]) {
      const alone = await runExperiment(runOptions(config, join(root, `alone-${m}`), { only: [`broder/mod=${m}`] }));
      if (alone.kind !== 'completed') throw new Error('expected a completed run');
      const file = `errors/broder/mod=${m}.jsonl`;
      expect(readFileSync(join(run.dir, file)).equals(readFileSync(join(alone.dir, file))), file).toBe(true);
    }
    expect(readdirSync(join(run.dir, 'errors', 'broder')).sort()).toEqual(['mod=2.jsonl', 'mod=4.jsonl', 'mod=8.jsonl']);
  });
});
