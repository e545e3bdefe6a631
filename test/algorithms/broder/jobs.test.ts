/**
 * Broder's MR#1 reducer (algorithms/broder/jobs.ts) on a fingerprint shared by more documents than
 * its pending-pairs table holds: every pair comes out with its count, and the reducer ends. Before
 * the table was emptied within a fingerprint, 1,885 documents sharing one (a 20,000-document
 * `bench synth scale --text walk` corpus) filled it and the probe for a free slot never ended.
 */
import { describe, expect, it } from 'vitest';
import { shinglePairsJob } from '../../../algorithms/broder/jobs.ts';
import type { BroderParams } from '../../../algorithms/broder/params.ts';

const PARAMS = { shingle: { unit: 'char', size: 64, start: 'word' }, fingerprint: 'rabin64', sampling: { method: 'none' } } as unknown as BroderParams;

describe('Broder MR#1 reducer', () => {
  it('sums every pair of a fingerprint whose pairs outnumber its table’s slots, and ends', () => {
    const counts = new Map<string, number>();
    const reducer = shinglePairsJob(PARAMS).reducer!({
      emit: (key, value) => counts.set(key, (counts.get(key) ?? 0) + Number(value)),
      count: () => undefined,
      side: () => [],
    });
    // 2,100 documents: 2,204,950 pairs, more than the table's 2^21 slots; each document is in a
    // second fingerprint with its neighbour, so some pairs are counted twice, across fingerprints.
    const df = 2100;
    for (let d = 0; d + 1 < df; d += 2) reducer.reduce(`pair-${d}`, [`${d + 1} 7`, `${d} 7`]);
    reducer.reduce('shared', Array.from({ length: df }, (_, i) => `${df - 1 - i} 7`));
    reducer.close?.();
    expect(counts.size).toBe((df * (df - 1)) / 2);
    let twice = 0;
    const wrong: string[] = [];
    for (const [key, c] of counts) {
      const [a, , b] = key.split(' ').map(Number) as [number, number, number];
      const expected = a % 2 === 0 && b === a + 1 ? 2 : 1;
      if (!(a < b) || c !== expected) wrong.push(`${key}: ${c}`);
      if (c === 2) twice++;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(twice).toBe(df / 2);
  }, 60_000);
});
