/**
 * A ground truth with `sampling: { method: none, distinct_pairs: skip }` must give the pairs and
 * every counter of the default ground truth but MR#2's `distinct_pairs`, on each of the kernel's
 * four paths (in memory from a floor and from 0; out of core by the prefix join and by the
 * spilled full join); the default counts the pairs sharing a fingerprint, as the definition does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../algorithms/broder/index.ts';
import { runExternal, type ExternalTuning } from '../../../algorithms/broder/external.ts';
import { broderKernel, broderKernelBytes } from '../../../algorithms/broder/kernel.ts';
import { MR1, MR2 } from '../../../algorithms/broder/jobs.ts';
import type { BroderParams } from '../../../algorithms/broder/params.ts';
import { countsDistinctPairs } from '../../../algorithms/broder/sampling.ts';
import type { Counters, DocumentSet, PairList } from '../../../contract/index.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { bruteForce, corpus, SHINGLE } from '../../support/heavy-text.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';

const pool = new WorkerPool(2);
afterAll(() => pool.close());

const counted = broder.params.parse({ shingle: SHINGLE });
const skipped = broder.params.parse({ shingle: SHINGLE, sampling: { method: 'none', distinct_pairs: 'skip' } });

const documents = (texts: string[]): DocumentSet => ({ ids: texts.map((_, i) => `d${i}`), texts });
const rows = (p: PairList): string[] => Array.from(p.a, (a, i) => `${a} ${p.b[i]} ${p.score[i]}`);

type Path = 'in memory' | 'prefix join out of core' | 'full join out of core';

async function run(texts: string[], params: BroderParams, o: { path: Path; floor: number }): Promise<{ rows: string[]; counters: Counters }> {
  const counters: Counters = {};
  const work = mkdtempSync(join(tmpdir(), 'distinct-pairs-'));
  try {
    const k = kernelOnThreads({ docs: documents(texts), pool, threads: 2, budget: 2 ** 31, workDir: work, counters });
    if (o.path === 'in memory') {
      const r = await broderKernel(params, o.floor).run(k);
      // What metrics.csv leaves empty: the counter is not counted, not 0.
      expect(r.uncounted).toEqual(countsDistinctPairs(params.sampling) ? undefined : [{ group: MR2, name: 'distinct_pairs' }]);
      return { rows: rows(r.pairs), counters };
    }
    const prefixJoin: ExternalTuning['prefixJoin'] = o.path === 'prefix join out of core' ? 'always' : 'never';
    const r = await runExternal(k, params, o.floor, { batchChars: 200, partitionBits: 2, ranges: 3, capacityPairs: 1024, prefixJoin });
    return { rows: rows(r.pairs), counters };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The counters without MR#2's `distinct_pairs`. */
function withoutDistinct(c: Counters): Counters {
  const { distinct_pairs: _dropped, ...mr2 } = c[MR2] ?? {};
  return { ...c, [MR2]: mr2 };
}

describe('a ground truth that skips distinct_pairs', () => {
  const cases: [Path, number][] = [
    ['in memory', 0.3],
    ['in memory', 0],
    ['prefix join out of core', 0.3],
    ['full join out of core', 0.3],
  ];
  it.each(cases)('gives the pairs and the other counters of the counting one (%s, floor %d)', async (path, floor) => {
    const texts = corpus(3, 50);
    const all = bruteForce(texts);
    const expected = all.filter((p) => p.rr >= Math.max(floor, Number.MIN_VALUE)).map((p) => `${p.a} ${p.b} ${p.rr}`);
    const count = await run(texts, counted, { path, floor });
    const skip = await run(texts, skipped, { path, floor });
    expect(count.rows).toEqual(expected);
    expect(skip.rows).toEqual(expected);
    // The default counts every pair sharing a fingerprint, as the definition does.
    expect(count.counters[MR2]?.distinct_pairs).toBe(all.filter((p) => p.rr > 0).length);
    expect(skip.counters[MR2]?.distinct_pairs).toBeUndefined();
    expect(skip.counters).toEqual(withoutDistinct(count.counters));
    expect(skip.counters[MR1]?.output_pairs).toBeGreaterThan(0);
  });

  it('is used in memory whenever the kernel fits (so the in-memory case above ran in memory)', () => {
    const texts = corpus(3, 50);
    expect(broderKernelBytes({ documents: texts.length, chars: texts.reduce((s, t) => s + t.length, 0) })).toBeLessThan(2 ** 31);
  });
});

describe('the distinct_pairs option', () => {
  it('belongs to the unsampled ground truth only', () => {
    expect(countsDistinctPairs(counted.sampling)).toBe(true);
    expect(countsDistinctPairs(skipped.sampling)).toBe(false);
    expect(countsDistinctPairs(broder.params.parse({ sampling: { method: 'none', distinct_pairs: 'count' } }).sampling)).toBe(true);
    expect(broder.params.safeParse({ sampling: { method: 'sct', threshold: 5, distinct_pairs: 'skip' } }).success).toBe(false);
    expect(broder.params.safeParse({ sampling: { method: 'none', distinct_pairs: 'sometimes' } }).success).toBe(false);
  });
});
