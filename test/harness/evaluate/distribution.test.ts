import { describe, expect, it } from 'vitest';
import { nearDuplicateDistribution } from '../../../harness/evaluate/distribution.ts';
import { pairList } from './pairs.ts';

// Ten documents 0..9; documents 7, 8, 9 are in no pair.
// Document 0 is in three pairs (best 0.9), so it must count once at every threshold.
const pairs = pairList([
  [0, 1, 0.9],
  [0, 2, 0.5],
  [0, 3, 0.3],
  [4, 5, 0.5],
  [5, 6, 0.1],
]);
// best score per document: 0→0.9 1→0.9 2→0.5 3→0.3 4→0.5 5→0.5 6→0.1, 7..9 none
//   t = 0.9: {0,1}               2/10 = 20%
//   t = 0.5: {0,1,2,4,5}         5/10 = 50%   (0.5 itself counts: inclusive)
//   t = 0.3: {0,1,2,3,4,5}       6/10 = 60%
//   t = 0.1: {0,...,6}           7/10 = 70%
//   t = 0.95: none               0%
describe('nearDuplicateDistribution', () => {
  it('gives the percentage of documents with a pair at or above each threshold', () => {
    const d = nearDuplicateDistribution(pairs, 10, [0.95, 0.9, 0.5, 0.3, 0.1]);
    expect(d[0]).toBe(0);
    expect(d[1]).toBeCloseTo(20, 12);
    expect(d[2]).toBeCloseTo(50, 12);
    expect(d[3]).toBeCloseTo(60, 12);
    expect(d[4]).toBeCloseTo(70, 12);
  });

  it('keeps the order of the thresholds as given', () => {
    const d = nearDuplicateDistribution(pairs, 10, [0.1, 0.9]);
    expect(d[0]).toBeCloseTo(70, 12);
    expect(d[1]).toBeCloseTo(20, 12);
  });

  it('divides by all documents of the collection, not by the documents in pairs (Table 3.1)', () => {
    // The same pairs in a collection four times larger: a quarter of the percentage. Were the
    // denominator the 7 documents in pairs, t = 0.1 would give 100% in both collections.
    const d10 = nearDuplicateDistribution(pairs, 10, [0.1])[0]!;
    const d40 = nearDuplicateDistribution(pairs, 40, [0.1])[0]!;
    expect(d10).toBeCloseTo(70, 12);
    expect(d40).toBeCloseTo(17.5, 12);
  });

  it('gives 0% for every threshold when there are no pairs', () => {
    expect(nearDuplicateDistribution(pairList([]), 5, [0.9, 0.1])).toEqual([0, 0]);
  });

  it('throws on a collection without documents or a pair outside it', () => {
    expect(() => nearDuplicateDistribution(pairList([]), 0, [0.5])).toThrow('nDocs 0 is not a positive integer');
    expect(() => nearDuplicateDistribution(pairList([[0, 9, 0.5]]), 5, [0.5])).toThrow('pair 0 is (0, 9)');
  });
});
