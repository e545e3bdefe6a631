/**
 * The SCT variant's error samples take their document counts from what the run computed
 * (runner.ts errorSampling, the local backend's computedIfAny): the ground truth's fingerprint
 * runs out of core, its features in memory, with no pass over the collection
 * (feature-counts.ts PassCounts), and the errors file is the one the pass gives. The pass is
 * forced by a local backend that offers nothing it computed, as another backend would.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PassCounts } from '../../../algorithms/text/feature-counts.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { corpus } from '../../support/heavy-text.ts';
import { runOptions } from '../../support/run-options.ts';

const hidden = vi.hoisted(() => ({ computed: false }));
vi.mock('../../../harness/mapreduce/local/backend.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../harness/mapreduce/local/backend.ts')>();
  return {
    ...m,
    createLocalBackend: (o: Parameters<typeof m.createLocalBackend>[0]) => {
      const backend = m.createLocalBackend(o);
      if (!hidden.computed) return backend;
      const { computedIfAny: _hidden, ...rest } = backend;
      return rest;
    },
  };
});

const SHINGLE = '{ unit: char, size: 8, start: word }';
let root: string;
type RunName = 'out-of-core' | 'in-memory' | 'pass';
const runs = {} as Record<RunName, { errors: Buffer; record: RunRecord; passes: number }>;

/** Runs the config (no corpus cache, so no stored values: as `--no-stored-values`), counting the passes made. */
async function run(name: RunName, memoryMb: number): Promise<void> {
  const config = join(root, `${name}.yaml`);
  writeFileSync(
    config,
    [
      `experiment: ${name}`,
      `corpus: { format: jsonl, path: ${join(root, 'heavy.jsonl')} }`,
      `ground_truth: { algorithm: broder, params: { shingle: ${SHINGLE}, sampling: { method: none, distinct_pairs: skip } } }`,
      'runs:',
      `  - { algorithm: broder, name: sct, params: { shingle: ${SHINGLE}, sampling: { method: sct, threshold: 8 } } }`,
      'evaluate: { threshold: 0.5, min_score: 0.1 }',
      `backend: { kind: local, workers: 1, memory_mb: ${memoryMb} }`,
      '',
    ].join('\n'),
  );
  const pass = vi.spyOn(PassCounts.prototype, 'counts');
  try {
    const outcome = await runExperiment(runOptions(config, join(root, 'results'), { runId: 'r' }));
    if (outcome.kind !== 'completed') throw new Error(`run ${name}: ${outcome.kind}`);
    runs[name] = { errors: readFileSync(join(outcome.dir, 'errors', 'sct.jsonl')), record: outcome.record, passes: pass.mock.calls.length };
  } finally {
    pass.mockRestore();
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'runner-error-counts-'));
  const texts = corpus(11, 300);
  writeFileSync(join(root, 'heavy.jsonl'), texts.map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n') + '\n');
  // 64 MB: under the in-memory kernel's 128 MiB alone, so the ground truth and SCT run out of core
  await run('out-of-core', 64);
  await run('in-memory', 2048);
  hidden.computed = true;
  try {
    await run('pass', 64);
  } finally {
    hidden.computed = false;
  }
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sct = (name: RunName) => runs[name].record.variants.find((v) => v.name === 'sct')!;

describe("the SCT variant's error samples", () => {
  it('count documents from the fingerprint runs out of core, and from the features in memory, with no pass', () => {
    expect(String(sct('out-of-core').backend_extra?.out_of_core)).toMatch(/over memory_mb/);
    expect(sct('in-memory').backend_extra?.out_of_core).toBeUndefined();
    expect(runs['out-of-core'].passes).toBe(0);
    expect(runs['in-memory'].passes).toBe(0);
    // the same run without the backend's values passes over the collection
    expect(runs.pass.passes).toBeGreaterThan(0);
  });

  it('write the errors file the pass over the collection gives, byte for byte', () => {
    const lines = runs.pass.errors.toString().trim().split('\n');
    // errors whose shared fingerprints SCT dropped, each held by more than 8 documents
    const dropped = lines.flatMap((l) => (JSON.parse(l).explanation.evidence.data.dropped_examples as { documents: number }[]).map((f) => f.documents));
    expect(lines.length).toBeGreaterThan(5);
    expect(dropped.length).toBeGreaterThan(5);
    expect(Math.min(...dropped)).toBeGreaterThan(8);
    expect(runs['out-of-core'].errors.equals(runs.pass.errors)).toBe(true);
    expect(runs['in-memory'].errors.equals(runs.pass.errors)).toBe(true);
  });
});
