/**
 * The out-of-core Broder kernel must give exactly the in-memory kernel's pairs, scores and
 * counters (which kernel-equals-jobs.test.ts shows equal to the text jobs'), however many runs
 * it spills; and an interrupted run must leave no file behind.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../algorithms/broder/index.ts';
import { runExternal, type ExternalStats } from '../../../algorithms/broder/external.ts';
import type { BroderParams } from '../../../algorithms/broder/params.ts';
import type { Counters, DocumentSet, KernelContext, PairList } from '../../../contract/index.ts';
import { createLocalBackend } from '../../../harness/mapreduce/local/backend.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';
import { rowsOf } from '../../support/run-plan.ts';
import { generator as random } from '../../../harness/synth/random.ts';


/**
 * The small corpus and 150 documents of 4 to 9 sentences drawn from 40: thousands of pairs share
 * a fingerprint, so a pair table of 64 spills many times.
 */
function corpus(): DocumentSet {
  const small = smallCorpus();
  const r = random(7);
  const words = Array.from(small.texts).join(' ').split(/\s+/);
  const sentences = Array.from({ length: 40 }, () => Array.from({ length: 8 + Math.floor(r() * 8) }, () => words[Math.floor(r() * words.length)]).join(' ') + '.');
  const texts = [...small.texts];
  for (let d = 0; d < 150; d++) {
    const n = 4 + Math.floor(r() * 6);
    texts.push(Array.from({ length: n }, () => sentences[Math.floor(r() * sentences.length)]).join(' '));
  }
  texts.push('', 'tiny');
  return { ids: texts.map((_, i) => `d${i}`), texts };
}

const docs = corpus();
const pool = new WorkerPool(2);
afterAll(() => pool.close());

function context(opts: { workDir: string; threads: 1 | 2; budget: number; signal?: AbortSignal; counters: Counters; progress?: (phase: string, done?: number) => void }): KernelContext {
  return kernelOnThreads({ docs, pool, ...opts });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function inMemory(params: BroderParams): Promise<{ pairs: PairList; counters: Counters }> {
  const counters: Counters = {};
  const work = mkdtempSync(join(tmpdir(), 'ext-mem-'));
  try {
    const plan = broder.plan(params, { minScore: Number.MIN_VALUE, seed: 0 });
    const r = await (plan.local as NonNullable<typeof plan.local>).run(context({ workDir: work, threads: 1, budget: 2 ** 30, counters }));
    expect(filesUnder(work)).toEqual([]);
    return { pairs: r.pairs, counters };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const samplings = [
  { method: 'none' },
  { method: 'mod', m: 2 },
  { method: 'mod', m: 3, residue: 1 },
  { method: 'sct', threshold: 8 },
];

describe('out-of-core Broder kernel', () => {
  it.each([
    ...samplings.map((sampling) => ({ sampling, fingerprint: 'rabin64', threads: 1 as const })),
    ...samplings.map((sampling) => ({ sampling, fingerprint: 'rabin64', threads: 2 as const })),
    { sampling: { method: 'none' }, fingerprint: 'md5', threads: 2 as const },
    { sampling: { method: 'mod', m: 2 }, fingerprint: 'md5', threads: 1 as const },
  ])('gives the in-memory pairs and counters through many spills: $sampling.method $fingerprint, $threads thread(s)', async ({ sampling, fingerprint, threads }) => {
    const params = broder.params.parse({ shingle: { unit: 'char', size: 16 }, fingerprint, sampling });
    const expected = await inMemory(params);
    expect(expected.pairs.a.length).toBeGreaterThan(300);
    const counters: Counters = {};
    const work = mkdtempSync(join(tmpdir(), 'ext-'));
    let stats: ExternalStats | undefined;
    try {
      const r = await runExternal(context({ workDir: work, threads, budget: 2 ** 30, counters }), params, Number.MIN_VALUE, {
        batchChars: 4000,
        partitionBits: 2,
        ranges: 3,
        capacityPairs: 64,
        // SCT's own path counts without pair runs (external-sct.test.ts): the spills are tested here.
        sctCount: 'never',
        report: (s) => (stats = s),
      });
      expect(rowsOf(r.pairs)).toEqual(rowsOf(expected.pairs));
      // The ranges are concatenated in order: the pairs come out sorted by (a, b).
      for (let i = 1; i < r.pairs.a.length; i++) {
        const da = (r.pairs.a[i] as number) - (r.pairs.a[i - 1] as number);
        expect(da > 0 || (da === 0 && (r.pairs.b[i] as number) > (r.pairs.b[i - 1] as number))).toBe(true);
      }
      expect(counters).toEqual(expected.counters);
      // Several fingerprint runs and many pair runs: the merges are exercised, not bypassed.
      expect(stats?.fingerprintRuns).toBeGreaterThanOrEqual(5);
      expect(stats?.pairRuns).toBeGreaterThanOrEqual(10);
      expect(r.spillBytes).toBe((stats?.fingerprintBytes ?? 0) + (stats?.pairBytes ?? 0));
      // The pair runs and the unmerged fingerprint runs are gone; the merged partitions stay for
      // the run's later variants.
      expect(filesUnder(work).map((f) => f.replace(/^.*\//, '')).sort()).toEqual(['000', '001', '002', '003'].flatMap((p) => [`partition-${p}.shared`, `partition-${p}.single`]));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('scores only pairs at or above the floor, and counts the others as distinct pairs', async () => {
    const params = broder.params.parse({ shingle: { unit: 'char', size: 16 } });
    const all = await inMemory(params);
    const floor = 0.3;
    const counters: Counters = {};
    const work = mkdtempSync(join(tmpdir(), 'ext-'));
    try {
      const r = await runExternal(context({ workDir: work, threads: 1, budget: 2 ** 30, counters }), params, floor, { batchChars: 4000, capacityPairs: 256 });
      const above = rowsOf(all.pairs).filter((row) => Number(row.split(' ')[2]) >= floor);
      expect(above.length).toBeGreaterThan(0);
      expect(rowsOf(r.pairs)).toEqual(above);
      expect(counters['mr2-resemblance']).toEqual({ distinct_pairs: all.pairs.a.length, output_pairs: above.length });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('out-of-core Broder kernel on the local backend', () => {
  const params = broder.params.parse({ shingle: { unit: 'char', size: 16 } });
  const job = { variant: 'v', algorithm: 'broder', params, minScore: Number.MIN_VALUE, seed: 0, plan: broder.plan(params, { minScore: Number.MIN_VALUE, seed: 0 }) };

  it('runs out of core, not as text jobs, when the in-memory kernel would not fit', async () => {
    const run = async (memoryMb: number) => {
      const backend = createLocalBackend({ workers: 2, memoryMb, pricePerVcpuHour: 0, engine: 'auto' });
      const work = mkdtempSync(join(tmpdir(), 'ext-backend-'));
      try {
        return await backend.run(job, { docs, workDir: work, signal: new AbortController().signal, progress() {} });
      } finally {
        await backend.close();
        rmSync(work, { recursive: true, force: true });
      }
    };
    const roomy = await run(256);
    const tight = await run(0.2);
    // The fingerprints are computed (no store here), in memory.
    expect(roomy.extra).toEqual({ engine: 'kernel', computed: ['fingerprint features (char-16 shingles, rabin64)'] });
    expect(roomy.spillBytes).toBe(0);
    expect(tight.extra?.engine).toBe('kernel');
    expect(String(tight.extra?.out_of_core)).toMatch(/over memory_mb 0.2/);
    expect(tight.spillBytes).toBeGreaterThan(0);
    expect(rowsOf(tight.outputs.pairs)).toEqual(rowsOf(roomy.outputs.pairs));
    expect(tight.counters).toEqual(roomy.counters);
  });

  it('keeps adaptive sampling (a modulus per size group, pairs at the coarser level) off the out-of-core path: over budget it runs as text jobs, same pairs', async () => {
    const adaptive = broder.params.parse({ shingle: { unit: 'char', size: 16 }, sampling: { method: 'adaptive', groups: [{ max_size: 30, m: 1 }, { max_size: null, m: 2 }] } });
    const plan = broder.plan(adaptive, { minScore: Number.MIN_VALUE, seed: 0 });
    expect(plan.local?.outOfCore).toBe(false);
    const run = async (memoryMb: number) => {
      const backend = createLocalBackend({ workers: 2, memoryMb, pricePerVcpuHour: 0, engine: 'auto' });
      const work = mkdtempSync(join(tmpdir(), 'ext-adaptive-'));
      try {
        return await backend.run({ ...job, params: adaptive, plan }, { docs, workDir: work, signal: new AbortController().signal, progress() {} });
      } finally {
        await backend.close();
        rmSync(work, { recursive: true, force: true });
      }
    };
    const roomy = await run(256);
    const tight = await run(0.2);
    expect(roomy.extra?.engine).toBe('kernel');
    expect(tight.extra?.engine).toBe('jobs');
    expect(rowsOf(tight.outputs.pairs)).toEqual(rowsOf(roomy.outputs.pairs));
  });

  it.each(['fingerprint runs', 'sorting fingerprint runs', 'join (out of core)', 'resemblance (out of core)'])('leaves no file behind when interrupted during "%s"', async (phase) => {
    const backend = createLocalBackend({ workers: 2, memoryMb: 0.2, pricePerVcpuHour: 0, engine: 'auto' });
    const work = mkdtempSync(join(tmpdir(), 'ext-abort-'));
    const abort = new AbortController();
    const seen: string[] = [];
    try {
      const run = backend.run(job, {
        docs,
        workDir: work,
        signal: abort.signal,
        progress(p, done) {
          seen.push(p);
          // Abort once the phase has started and written something.
          if (p === phase && done === 1) abort.abort(new Error('interrupted by the test'));
        },
      });
      await expect(run).rejects.toThrow(/interrupted by the test/);
      expect(seen).toContain(phase);
      expect(filesUnder(work)).toEqual([]);
    } finally {
      await backend.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
