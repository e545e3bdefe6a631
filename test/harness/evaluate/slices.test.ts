/**
 * Precision and recall per document-size group and threshold, worked by hand on seven
 * documents whose words, groups and pairs are listed below.
 */
import { describe, expect, it } from 'vitest';
import { compareWithTruth } from '../../../harness/evaluate/compare.ts';
import { assignGroups, DEFAULT_SIZE_GROUPS, groupLabel, sizeGroupProblems } from '../../../harness/evaluate/size-groups.ts';
import { evaluateSlices, type SliceMeasures } from '../../../harness/evaluate/slices.ts';
import { sortPairs } from '../../../harness/evaluate/sorted-pairs.ts';
import { pairList, randomPairs, seededRandom } from './pairs.ts';

// Groups 0–9, 10–19 and 20+ words. Documents and their words (group):
//   d0 5 (g0)  d1 6 (g0)  d2 12 (g1)  d3 15 (g1)  d4 25 (g2)  d5 30 (g2)  d6 8 (g0)
const groups = [
  { min_words: 0, max_words: 9 },
  { min_words: 10, max_words: 19 },
  { min_words: 20, max_words: null },
];
const sizes = assignGroups(Uint32Array.of(5, 6, 12, 15, 25, 30, 8), groups);
// Ground truth G and run S; a pair's group is its smaller document's:
//   (0,1) G .9  S .95  g0        (1,2) G .6  S —    g0 (d1 has 6 words, d2 12)
//   (2,3) G .8  S .4   g1        (1,6) G —   S .7   g0
//   (4,5) G .7  S .75  g2        (3,4) G .3  S .55  g1 (d3 has 15 words, d4 25)
const truth = sortPairs(pairList([[0, 1, 0.9], [2, 3, 0.8], [4, 5, 0.7], [1, 2, 0.6], [3, 4, 0.3]]), 7, 'truth');
const run = sortPairs(pairList([[0, 1, 0.95], [2, 3, 0.4], [4, 5, 0.75], [1, 6, 0.7], [3, 4, 0.55]]), 7, 'run');

const pick = (m: SliceMeasures) => [m.docs, m.dup_pairs, m.res_pairs, m.both_pairs, m.precision_pairs, m.recall_pairs, m.dup_docs, m.res_docs, m.both_docs, m.precision_docs, m.recall_docs];

describe('precision and recall per size group', () => {
  const s = evaluateSlices({ truth, run, sizes, groups: 3, thresholds: [0.5, 0.7], decisions: 'score-at-threshold' });

  it('puts each document in its group by words', () => {
    expect(Array.from(sizes.group)).toEqual([0, 0, 1, 1, 2, 2, 0]);
    expect(sizes.docs).toEqual([3, 2, 2]);
  });

  it('at t = 0.5: by hand', () => {
    // Dup = {01, 23, 45, 12}, Res = {01, 45, 16, 34}, both {01, 45}.
    // Documents: Dup {0,1,2,3,4,5} (best G ≥ .5), Res {0,1,3,4,5,6} (best S ≥ .5), both 5.
    expect(pick(s.all[0] as SliceMeasures)).toEqual([7, 4, 4, 2, 0.5, 0.5, 6, 6, 5, 5 / 6, 5 / 6]);
    // g0: pairs Dup {01, 12}, Res {01, 16}, both {01}; documents {0,1,6}: Dup {0,1}, Res {0,1,6}
    expect(pick(s.groups[0]?.[0] as SliceMeasures)).toEqual([3, 2, 2, 1, 0.5, 0.5, 2, 3, 2, 2 / 3, 1]);
    // g1: pairs Dup {23}, Res {34}, none both; documents {2,3}: Dup {2,3}, Res {3}
    expect(pick(s.groups[1]?.[0] as SliceMeasures)).toEqual([2, 1, 1, 0, 0, 0, 2, 1, 1, 1, 0.5]);
    // g2: pairs {45} everywhere; documents {4,5} everywhere
    expect(pick(s.groups[2]?.[0] as SliceMeasures)).toEqual([2, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1]);
  });

  it('at t = 0.7: by hand, an empty Res gives an empty precision', () => {
    // Dup = {01, 23, 45}, Res = {01, 45, 16}: both 2. Documents: Dup {0..5}, Res {0,1,4,5,6}, both 4.
    expect(pick(s.all[1] as SliceMeasures)).toEqual([7, 3, 3, 2, 2 / 3, 2 / 3, 6, 5, 4, 4 / 5, 4 / 6]);
    expect(pick(s.groups[0]?.[1] as SliceMeasures)).toEqual([3, 1, 2, 1, 0.5, 1, 2, 3, 2, 2 / 3, 1]);
    // g1: Res is empty at 0.7 (34 scores .55): precision undefined, recall 0
    expect(pick(s.groups[1]?.[1] as SliceMeasures)).toEqual([2, 1, 0, 0, null, 0, 2, 0, 0, null, 0]);
  });

  it('reads every reported pair as a decision for a detector that decides', () => {
    const d = evaluateSlices({ truth, run, sizes, groups: 3, thresholds: [0.5], decisions: 'every-reported-pair' });
    // Res = all five run pairs; both = {01, 23, 45}; documents Res = {0..6}
    expect(pick(d.all[0] as SliceMeasures)).toEqual([7, 4, 5, 3, 0.6, 0.75, 6, 7, 6, 6 / 7, 1]);
  });

  it('gives the whole collection the precision and recall of compare.ts, at any threshold', () => {
    const random = seededRandom(7);
    const t = randomPairs(400, 60, random, random);
    const r = randomPairs(400, 60, random, random);
    const words = Uint32Array.from({ length: 60 }, () => Math.floor(random() * 3000));
    const thresholds = [0.3, 0.5, 0.8];
    const sl = evaluateSlices({ truth: sortPairs(t, 60, 't'), run: sortPairs(r, 60, 'r'), sizes: assignGroups(words, DEFAULT_SIZE_GROUPS), groups: 11, thresholds, decisions: 'score-at-threshold' });
    thresholds.forEach((threshold, k) => {
      const c = compareWithTruth(t, r, 60, { minScore: 0.1, threshold });
      const all = sl.all[k] as SliceMeasures;
      expect([all.precision_pairs, all.recall_pairs, all.precision_docs, all.recall_docs]).toEqual([c.precisionPairs, c.recallPairs, c.precisionDocs, c.recallDocs]);
      // every pair and document is in exactly one group (the default groups cover every size)
      const sum = (key: keyof SliceMeasures): number => sl.groups.reduce((x, g) => x + ((g[k] as SliceMeasures)[key] as number), 0);
      expect([sum('dup_pairs'), sum('res_pairs'), sum('both_pairs'), sum('docs')]).toEqual([all.dup_pairs, all.res_pairs, all.both_pairs, 60]);
    });
  });
});

describe('size groups', () => {
  it('defaults to 11 groups 500 words wide, the last unbounded', () => {
    expect(DEFAULT_SIZE_GROUPS.map(groupLabel)).toEqual(['0-499', '500-999', '1000-1499', '1500-1999', '2000-2499', '2500-2999', '3000-3499', '3500-3999', '4000-4499', '4500-4999', '5000+']);
    expect(sizeGroupProblems(DEFAULT_SIZE_GROUPS)).toEqual([]);
  });

  it('finds overlapping, unsorted, reversed and early-unbounded groups', () => {
    const msg = (g: { min_words: number; max_words: number | null }[]) => sizeGroupProblems(g).map((p) => `${p.index}.${p.field}: ${p.message}`);
    expect(msg([{ min_words: 0, max_words: 500 }, { min_words: 500, max_words: null }])).toEqual(['1.min_words: size groups overlap: 500+ starts inside the group before it (0-500)']);
    expect(msg([{ min_words: 500, max_words: 999 }, { min_words: 0, max_words: 499 }])).toEqual(['1.min_words: size groups must be sorted by min_words: 0 follows 500']);
    expect(msg([{ min_words: 10, max_words: 5 }])).toEqual(['0.max_words: must be at least min_words (10), got 5']);
    expect(msg([{ min_words: 0, max_words: null }, { min_words: 10, max_words: null }])).toContain('0.max_words: only the last size group may be unbounded (max_words omitted)');
    // a gap is allowed: documents of 100-199 words are in no group
    expect(msg([{ min_words: 0, max_words: 99 }, { min_words: 200, max_words: null }])).toEqual([]);
    expect(Array.from(assignGroups(Uint32Array.of(50, 150, 250), [{ min_words: 0, max_words: 99 }, { min_words: 200, max_words: null }]).group)).toEqual([0, -1, 1]);
  });
});
