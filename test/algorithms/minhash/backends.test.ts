/**
 * The MinHash plan on the real backends: the local backend's kernel and its text jobs (on two
 * worker threads, with a shuffle that spills), and the streaming backend (the bundled job script
 * under real sort processes), all giving the same pairs, scores, counters and clusters table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/minhash/index.ts';
import { createStreamingBackend } from '../../../harness/mapreduce/streaming/backend.ts';
import { streamingBackendSchema } from '../../../harness/mapreduce/streaming/config.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { rowsOf, runPlan } from '../../support/run-plan.ts';
import { makeContext, removeTempDirs } from '../../harness/mapreduce/streaming/toy/fixture.ts';

const docs = smallCorpus();
const shingle = { unit: 'char', size: 16 };

afterAll(removeTempDirs);

describe('MinHash on the local backend', () => {
  it.each([
    { shingle, permutations: 32, threshold: 0.4 },
    { shingle, permutations: 64, threshold: 0.4, sketch: 'one-permutation', verify: 'exact' },
    { shingle, permutations: 24, bands: 8, rows: 3, threshold: 0.3, bits: 4, verify: 'none' },
  ])('kernel and text jobs (2 threads, spilling) agree for %j', async (raw) => {
    const kernel = await runPlan('minhash', raw, docs, { engine: 'auto', workers: 2, seed: 3 });
    const jobs = await runPlan('minhash', raw, docs, { engine: 'jobs', workers: 2, memoryMb: 0.01, seed: 3 });
    expect(kernel.outputs.tables?.['clusters']).toBeDefined();
    expect(kernel.rows.length).toBeGreaterThan(0);
    expect(jobs.rows).toEqual(kernel.rows);
    expect(jobs.counters).toEqual(kernel.counters);
    expect(jobs.outputs.tables).toEqual(kernel.outputs.tables);
  });
});

describe('MinHash on the streaming backend', () => {
  it.each([
    { shingle, permutations: 32, threshold: 0.4 },
    { shingle, permutations: 32, threshold: 0.4, sketch: 'one-permutation', verify: 'none' },
  ])("gives the local kernel's pairs, counters and clusters for %j", async (raw) => {
    const params = adapter.params.parse(raw);
    const ctx = { minScore: 0.1, seed: 7 };
    const plan = adapter.plan(params, ctx);
    const backend = createStreamingBackend(streamingBackendSchema.parse({ kind: 'streaming', map_tasks: 2, reduce_tasks: 2 }));
    const streamed = await backend.run({ variant: 'minhash', algorithm: 'minhash', params, ...ctx, plan }, makeContext(docs));
    const local = await runPlan('minhash', raw, docs, { engine: 'auto', ...ctx });
    expect(rowsOf(streamed.outputs.pairs)).toEqual(local.rows);
    expect(streamed.counters).toEqual(local.counters);
    const sorted = (t: readonly (readonly [string, string])[] | undefined): string[] => (t ?? []).map(([k, v]) => `${k} ${v}`).sort();
    expect(sorted(streamed.outputs.tables?.['clusters'])).toEqual(sorted(local.outputs.tables?.['clusters']));
    expect(local.rows.length).toBeGreaterThan(0);
  });
});
