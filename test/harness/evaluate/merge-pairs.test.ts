import { describe, expect, it } from 'vitest';
import { compareWithTruth } from '../../../harness/evaluate/compare.ts';
import { nearDuplicateDistribution } from '../../../harness/evaluate/distribution.ts';
import { restrictToScores } from '../../../harness/evaluate/merge-pairs.ts';
import { assignGroups } from '../../../harness/evaluate/size-groups.ts';
import { evaluateSlices } from '../../../harness/evaluate/slices.ts';
import { sortPairs } from '../../../harness/evaluate/sorted-pairs.ts';
import { pairList, randomPairs, rows, seededRandom } from './pairs.ts';

describe('restrictToScores', () => {
  const truth = pairList([
    [0, 1, 0.9],
    [0, 2, 0.05],
    [1, 3, 0.02],
    [2, 3, 0.5],
  ]);
  const run = pairList([
    [0, 1, 0.3],
    [0, 2, 0.4],
    [1, 2, 0.01],
    [1, 3, 0.03],
  ]);

  it('keeps a pair scoring at the floor in either list, with both its scores, and drops the rest', () => {
    // Floor 0.3: (0,1) 0.9/0.3, (0,2) 0.05/0.4, (2,3) 0.5/absent stay; (1,2) and (1,3) score below in both.
    const r = restrictToScores(truth, run, 0.3, false);
    expect(rows(r.left)).toEqual([
      [0, 1, 0.9],
      [0, 2, 0.05],
      [2, 3, 0.5],
    ]);
    expect(rows(r.right)).toEqual([
      [0, 1, 0.3],
      [0, 2, 0.4],
    ]);
  });

  it('keeps every right pair when asked, and the left pairs beside them', () => {
    const r = restrictToScores(truth, run, 0.3, true);
    expect(rows(r.right)).toEqual(rows(run));
    expect(rows(r.left)).toEqual([
      [0, 1, 0.9],
      [0, 2, 0.05],
      [1, 3, 0.02],
      [2, 3, 0.5],
    ]);
  });

  // A second method: every measure computed from the whole lists equals the same measure from the restricted ones.
  it('leaves every measure from the floor up as the whole lists give it (random lists)', () => {
    const random = seededRandom(7);
    const nDocs = 60;
    const sizes = assignGroups(
      Uint32Array.from({ length: nDocs }, () => Math.floor(random() * 40)),
      [
        { min_words: 0, max_words: 19 },
        { min_words: 20, max_words: null },
      ],
    );
    for (let round = 0; round < 20; round++) {
      const t = sortPairs(randomPairs(300, nDocs, random, random), nDocs, 'truth');
      const r = sortPairs(randomPairs(300, nDocs, random, random), nDocs, 'run');
      for (const decisions of ['score-at-threshold', 'every-reported-pair'] as const) {
        const floor = 0.2;
        const cut = restrictToScores(t, r, floor, decisions === 'every-reported-pair');
        const opts = { minScore: 0.2, threshold: 0.5, decisions, scores: 0 };
        expect(compareWithTruth(cut.left, cut.right, nDocs, opts)).toEqual(compareWithTruth(t, r, nDocs, opts));
        const slices = (x: typeof t, y: typeof r) => evaluateSlices({ truth: x, run: y, sizes, groups: 2, thresholds: [0.5, 0.2, 0.8], decisions });
        expect(slices(cut.left, cut.right)).toEqual(slices(t, r));
        expect(nearDuplicateDistribution(cut.right, nDocs, [0.2, 0.6])).toEqual(nearDuplicateDistribution(r, nDocs, [0.2, 0.6]));
      }
    }
  });
});
