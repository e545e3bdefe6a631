/**
 * SCT out of core by counting (external-sct.ts) must give exactly the pairs and scores of the
 * definition (Nikkhoo 3.3.2: the shared fingerprints held by at most `threshold` documents, over
 * the full sizes) and the counters of the spilled full join (which external.test.ts shows equal
 * to the in-memory kernel's), and leave nothing behind when interrupted.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../algorithms/broder/index.ts';
import { runExternal, type ExternalStats, type ExternalTuning } from '../../../algorithms/broder/external.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import type { Counters, DocumentSet } from '../../../contract/index.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { corpus, SHINGLE } from '../../support/heavy-text.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';

const pool = new WorkerPool(2);
afterAll(() => pool.close());

const documents = (texts: string[]): DocumentSet => ({ ids: texts.map((_, i) => `d${i}`), texts });

/** SCT from the definition: for each pair, its shared shingles held by at most `threshold` documents, c / (|A| + |B| − c); pairs with c ≥ 1 and RR ≥ floor. */
function bruteForceSct(texts: string[], threshold: number, floor: number): string[] {
  const sets = texts.map((t) => new Set(charShingles(normalize(t), SHINGLE.size)));
  const df = new Map<string, number>();
  for (const s of sets) for (const x of s) df.set(x, (df.get(x) ?? 0) + 1);
  const rows: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      const [x, y] = [sets[a] as Set<string>, sets[b] as Set<string>];
      let c = 0;
      for (const s of x) if (y.has(s) && (df.get(s) as number) <= threshold) c++;
      if (c === 0) continue;
      const rr = c / (x.size + y.size - c);
      if (rr >= floor) rows.push(`${a} ${b} ${rr}`);
    }
  }
  return rows;
}

async function outOfCore(texts: string[], o: { threshold: number; floor: number; threads: 1 | 2; sctCount: ExternalTuning['sctCount']; budget?: number; fingerprint?: 'rabin64' | 'md5' }): Promise<{ rows: string[]; counters: Counters; stats: ExternalStats }> {
  const params = broder.params.parse({ shingle: SHINGLE, fingerprint: o.fingerprint ?? 'rabin64', sampling: { method: 'sct', threshold: o.threshold } });
  const counters: Counters = {};
  const work = mkdtempSync(join(tmpdir(), 'ext-sct-'));
  let stats: ExternalStats | undefined;
  try {
    const k = kernelOnThreads({ docs: documents(texts), pool, workDir: work, threads: o.threads, budget: o.budget ?? 2 ** 30, counters });
    const r = await runExternal(k, params, o.floor, { batchChars: 200, partitionBits: 2, ranges: 3, capacityPairs: 1024, sctCount: o.sctCount, report: (s) => (stats = s) });
    return { rows: Array.from(r.pairs.a, (a, i) => `${a} ${r.pairs.b[i]} ${r.pairs.score[i]}`), counters, stats: stats as ExternalStats };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

describe('SCT out of core by counting', () => {
  it.each([1, 2, 3, 4, 5, 6])('gives the definition’s pairs and scores, sorted, and the spilled join’s counters (corpus %i)', async (seed) => {
    const texts = corpus(seed, 70);
    for (const threshold of [1, 2, 3, 7, 1000]) {
      for (const floor of [Number.MIN_VALUE, 0.3]) {
        const expected = bruteForceSct(texts, threshold, floor);
        const counted = await outOfCore(texts, { threshold, floor, threads: seed % 2 === 0 ? 2 : 1, sctCount: 'always', fingerprint: seed === 3 ? 'md5' : 'rabin64' });
        expect(counted.rows, `threshold ${threshold}, floor ${floor}`).toEqual(expected);
        expect(counted.stats.pairRuns).toBe(0);
        expect(counted.stats.fingerprintRuns).toBeGreaterThanOrEqual(5);
        const spilled = await outOfCore(texts, { threshold, floor, threads: 1, sctCount: 'never' });
        // The spilled join ran (it sizes a pair table; the count has none), and agrees with the definition too.
        expect(spilled.stats.capacityPairs).toBeGreaterThan(0);
        expect(spilled.rows).toEqual(expected);
        expect(counted.counters, `threshold ${threshold}, floor ${floor}`).toEqual(spilled.counters);
      }
    }
    // Thresholds between the frequencies: some pairs found at 7 share only fingerprints dropped at 2.
    expect(bruteForceSct(texts, 2, Number.MIN_VALUE).length).toBeLessThan(bruteForceSct(texts, 7, Number.MIN_VALUE).length);
  });

  it('counts when its postings fit the budget, and runs the spilled join when they do not', async () => {
    const texts = corpus(7, 60);
    const tight = await outOfCore(texts, { threshold: 5, floor: Number.MIN_VALUE, threads: 1, sctCount: 'fits', budget: 2 ** 20 });
    const roomy = await outOfCore(texts, { threshold: 5, floor: Number.MIN_VALUE, threads: 1, sctCount: 'fits', budget: 2 ** 33 });
    expect(tight.stats.pairRuns).toBeGreaterThan(0);
    expect(roomy.stats.pairRuns).toBe(0);
    expect(roomy.rows).toEqual(tight.rows);
    expect(roomy.counters).toEqual(tight.counters);
  });

  it.each(['SCT postings (out of core)', 'SCT count (out of core)'])('leaves no file behind when interrupted during "%s"', async (phase) => {
    const params = broder.params.parse({ shingle: SHINGLE, sampling: { method: 'sct', threshold: 5 } });
    const work = mkdtempSync(join(tmpdir(), 'ext-sct-abort-'));
    const abort = new AbortController();
    const seen: string[] = [];
    try {
      const k = kernelOnThreads({
        docs: documents(corpus(9, 200)),
        pool,
        workDir: work,
        threads: 2,
        budget: 2 ** 30,
        signal: abort.signal,
        progress(p, done) {
          seen.push(p);
          if (p === phase && done === 1) abort.abort(new Error('interrupted by the test'));
        },
      });
      await expect(runExternal(k, params, Number.MIN_VALUE, { batchChars: 200, partitionBits: 2, sctCount: 'always' })).rejects.toThrow(/interrupted by the test/);
      expect(seen).toContain(phase);
      expect(readdirSync(work, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
