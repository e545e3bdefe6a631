/**
 * The out-of-core ground truth by prefix join must give exactly the pairs with RR >= floor that
 * the definition gives, with the definition's scores, and the counters of the spilled full join
 * (which external.test.ts shows equal to the in-memory kernel's); its lists score any pair.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../algorithms/broder/index.ts';
import { outOfCoreLists, runExternal, type ExternalStats, type ExternalTuning } from '../../../algorithms/broder/external.ts';
import { exactResemblance } from '../../../algorithms/broder/prefix-join.ts';
import type { Counters, DocumentSet, KernelContext, PairList } from '../../../contract/index.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { bruteForce, corpus, SHINGLE } from '../../support/heavy-text.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';

const pool = new WorkerPool(2);
afterAll(() => pool.close());

const params = broder.params.parse({ shingle: SHINGLE });

function context(docs: DocumentSet, o: { workDir: string; threads: 1 | 2; budget: number; counters: Counters; cache?: Map<string, unknown> }): KernelContext {
  return kernelOnThreads({ docs, pool, ...o });
}

/** The pairs as rows in the order given: the kernel's pairs come sorted by (a, b), as brute force lists them. */
function rowsInOrder(p: PairList): string[] {
  return Array.from(p.a, (a, i) => `${a} ${p.b[i]} ${p.score[i]}`);
}

const documents = (texts: string[]): DocumentSet => ({ ids: texts.map((_, i) => `d${i}`), texts });

/** Runs the out-of-core kernel at `floor` in small pieces (many fingerprint runs, four partitions). */
async function outOfCore(texts: string[], floor: number, o: { threads: 1 | 2; prefixJoin: ExternalTuning['prefixJoin']; budget?: number }): Promise<{ rows: string[]; counters: Counters; stats: ExternalStats }> {
  const counters: Counters = {};
  const work = mkdtempSync(join(tmpdir(), 'ext-prefix-'));
  let stats: ExternalStats | undefined;
  try {
    const k = context(documents(texts), { workDir: work, threads: o.threads, budget: o.budget ?? 2 ** 30, counters });
    const r = await runExternal(k, params, floor, { batchChars: 200, partitionBits: 2, ranges: 3, capacityPairs: 1024, prefixJoin: o.prefixJoin, report: (s) => (stats = s) });
    return { rows: rowsInOrder(r.pairs), counters, stats: stats as ExternalStats };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const SEEDS = [1, 2, 3, 4, 5, 6];

describe('the out-of-core prefix join', () => {
  it.each(SEEDS)('finds exactly the pairs with RR >= floor, with the definition’s scores and the full join’s counters (corpus %i)', async (seed) => {
    const texts = corpus(seed, 70);
    const all = bruteForce(texts);
    const scores = [...new Set(all.map((p) => p.rr).filter((s) => s > 0))].sort((x, y) => x - y);
    expect(scores.length).toBeGreaterThan(10);
    const floors = [0.1, 0.5, 1, scores[Math.floor(scores.length / 3)] as number, scores[Math.floor((2 * scores.length) / 3)] as number];
    for (const floor of floors) {
      const expected = all.filter((p) => p.rr >= floor).map((p) => `${p.a} ${p.b} ${p.rr}`);
      const prefix = await outOfCore(texts, floor, { threads: seed % 2 === 0 ? 2 : 1, prefixJoin: 'always' });
      expect(prefix.rows, `floor ${floor}`).toEqual(expected);
      // The prefix join ran (no pair run), over several fingerprint runs.
      expect(prefix.stats.pairRuns).toBe(0);
      expect(prefix.stats.fingerprintRuns).toBeGreaterThanOrEqual(5);
      const full = await outOfCore(texts, floor, { threads: 1, prefixJoin: 'never' });
      expect(full.stats.pairRuns).toBeGreaterThan(0);
      expect(prefix.counters, `floor ${floor}`).toEqual(full.counters);
      expect(prefix.counters['mr2-resemblance']?.distinct_pairs).toBe(all.filter((p) => p.rr > 0).length);
    }
  });

  it('runs the spilled full join when its index does not fit the budget, and the prefix join when it does', async () => {
    const texts = corpus(7, 60);
    const tight = await outOfCore(texts, 0.3, { threads: 1, prefixJoin: 'fits', budget: 2 ** 20 });
    const roomy = await outOfCore(texts, 0.3, { threads: 1, prefixJoin: 'fits', budget: 2 ** 33 });
    expect(tight.stats.pairRuns).toBeGreaterThan(0);
    expect(roomy.stats.pairRuns).toBe(0);
    expect(roomy.rows).toEqual(tight.rows);
    expect(roomy.counters).toEqual(tight.counters);
  });
});

describe('the out-of-core lists', () => {
  it.each(SEEDS)('score every pair as the definition does, 0 for pairs sharing nothing (corpus %i)', async (seed) => {
    const texts = corpus(seed, 40);
    const all = bruteForce(texts);
    const work = mkdtempSync(join(tmpdir(), 'ext-lists-'));
    try {
      const lists = await outOfCoreLists(context(documents(texts), { workDir: work, threads: 2, budget: 2 ** 30, counters: {} }), params);
      const got = exactResemblance(lists, Uint32Array.from(all, (p) => p.a), Uint32Array.from(all, (p) => p.b));
      expect([...got]).toEqual(all.map((p) => p.rr));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('are the ground truth’s own when it ran out of core in the same run: made once', async () => {
    const texts = corpus(8, 40);
    const work = mkdtempSync(join(tmpdir(), 'ext-lists-'));
    const cache = new Map<string, unknown>();
    try {
      const k = context(documents(texts), { workDir: work, threads: 1, budget: 2 ** 30, counters: {}, cache });
      await runExternal(k, params, 0.5, { batchChars: 200, prefixJoin: 'always' });
      const keys = [...cache.keys()];
      const first = await outOfCoreLists(k, params);
      expect([...cache.keys()]).toEqual(keys);
      expect(await outOfCoreLists(k, params)).toBe(first);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
