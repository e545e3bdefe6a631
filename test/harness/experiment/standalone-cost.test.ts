/**
 * Standalone costs through a run: the ground truth computes the fingerprint features the SCT
 * sweep reuses; each reusing variant's standalone runtime and CPU add what they cost it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

const root = mkdtempSync(join(tmpdir(), 'standalone-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('adds to a variant\'s own cost what the shared values it reused cost the variant that computed them', async () => {
  const config = join(root, 'c.yaml');
  writeFileSync(
    config,
    `experiment: standalone
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: sct, threshold: [5, 2] } }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.5] }
backend: { kind: local, workers: 1 }
`,
  );
  const out = await runExperiment(runOptions(config, join(root, 'results')));
  if (out.kind !== 'completed') throw new Error(out.kind);
  const [truth, ...sweep] = out.record.variants;
  expect(truth?.measures.standalone_runtime_s).toBe(truth?.measures.runtime_s);
  expect(truth?.measures.standalone_cpu_s).toBe(truth?.measures.cpu_s);
  for (const v of sweep) {
    const b = v.backend_extra?.borrowed as { values: string[]; wall_s: number; cpu_s: number };
    expect(b.values.length).toBeGreaterThan(0);
    expect(v.measures.standalone_runtime_s).toBeCloseTo((v.measures.runtime_s as number) + b.wall_s, 12);
    expect(v.measures.standalone_cpu_s).toBeCloseTo((v.measures.cpu_s as number) + b.cpu_s, 12);
    expect(v.measures.standalone_runtime_s as number).toBeGreaterThan(v.measures.runtime_s as number);
  }
});
