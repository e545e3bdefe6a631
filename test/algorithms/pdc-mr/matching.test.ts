import { describe, expect, it } from 'vitest';
import { coverageScore, diagonalRuns, type Run, type SentencePair } from '../../../algorithms/pdc-mr/matching.ts';
import { compatibleSizes, jaccard, lengthCompatible, nearDuplicate } from '../../../algorithms/text/set-similarity.ts';
import { mulberry32 } from '../text/random-text.ts';

/** Algorithm 2 as printed (with |D| >= γ): P a set, pairs visited in ascending order, diagonals extracted and removed. */
function algorithm2(pairs: readonly SentencePair[], gamma: number): Run[] {
  const P = new Set(pairs.map((p) => `${p.a},${p.b}`));
  const sorted = [...P].map((k) => k.split(',').map(Number) as [number, number]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const runs: Run[] = [];
  for (const [a, b] of sorted) {
    if (!P.has(`${a},${b}`)) continue;
    let length = 0;
    while (P.has(`${a + length},${b + length}`)) length++;
    if (length < gamma) continue;
    for (let k = 0; k < length; k++) P.delete(`${a + k},${b + k}`);
    runs.push({ aStart: a, bStart: b, length });
  }
  return runs;
}

describe('length filter and Jaccard (equations (1)-(2), Algorithm 1)', () => {
  it('keeps a size ratio of exactly τ, where J = τ is still possible', () => {
    // |A| = 9 inside |B| = 10: J = 9/10 = τ exactly; the prose's "<= τ removed" would lose it
    expect(lengthCompatible(9, 10, 0.9)).toBe(true);
    expect(nearDuplicate(9, 9, 10, 0.9)).toBe(true);
    // 8/10 < 0.9: J <= 0.8 whatever they share
    expect(lengthCompatible(8, 10, 0.9)).toBe(false);
    expect(lengthCompatible(10, 8, 0.9)).toBe(false);
    expect(lengthCompatible(3, 3, 1)).toBe(true);
  });

  it('as an interval of sizes, decides as lengthCompatible does, pair by pair', () => {
    const wrong: string[] = [];
    for (const tau of [1, 0.9, 0.8, 0.75, 0.7, 0.6, 1 / 3, 0.3, 0.1, 0.05]) {
      for (let a = 1; a <= 300; a++) {
        const [lo, hi] = compatibleSizes(a, tau);
        for (let b = 1; b <= Math.ceil(a / tau) + 3; b++) if ((b >= lo && b <= hi) !== lengthCompatible(a, b, tau)) wrong.push(`a=${a} b=${b} tau=${tau}`);
      }
    }
    expect(wrong).toEqual([]);
    // by hand: 9 of 10 at τ = 0.9 is kept, 8 is not; above, 10/11 = 0.909 is kept, 10/12 is not
    expect(compatibleSizes(10, 0.9)).toEqual([9, 11]);
    expect(compatibleSizes(0, 0.9)).toEqual([1, 0]);
  });

  it('reads Algorithm 1\'s reducer as "at least τ" (the printed "< τ" is a typo)', () => {
    // by hand: 4 shared of 5 and 5 signatures: 4 / (5 + 5 - 4) = 2/3
    expect(jaccard(4, 5, 5)).toBeCloseTo(2 / 3, 15);
    expect(nearDuplicate(4, 5, 5, 0.6)).toBe(true);
    expect(nearDuplicate(4, 5, 5, 0.7)).toBe(false);
    expect(nearDuplicate(5, 5, 5, 1)).toBe(true);
  });
});

/**
 * A matrix in the manner of the paper's Figure 5 (the figure's drawing is not in the text; this
 * one is drawn here), documents d_i (rows, 10 sentences) and d_j (columns, 9 sentences):
 *
 *        b: 0 1 2 3 4 5 6 7 8
 *   a 0     . . . . . . . . .
 *   a 1     . x . . . . . . .      diagonal (1,1) (2,2) (3,3) (4,4): length 4
 *   a 2     . . x . . . . . x      (2,8): a lone pair
 *   a 3     . . . x . . . . .
 *   a 4     . . . . x . . . .
 *   a 5     x . . . . . . . .      diagonal (5,0) (6,1): length 2
 *   a 6     . x . . . . x . .      (6,6) (7,7) (8,8): length 3
 *   a 7     . . . . . . . x .
 *   a 8     . . . . . . . . x
 *   a 9     . . . . . . . . .
 */
const figure5 = [
  [1, 1], [2, 2], [3, 3], [4, 4],
  [2, 8],
  [5, 0], [6, 1],
  [6, 6], [7, 7], [8, 8],
].map(([a, b]) => ({ a: a as number, b: b as number }));

describe('sequence matching (Algorithm 2) on a Figure 5 matrix', () => {
  it('finds the maximal diagonals of at least γ pairs', () => {
    expect(diagonalRuns(figure5, 3)).toEqual([
      { aStart: 1, bStart: 1, length: 4 },
      { aStart: 6, bStart: 6, length: 3 },
    ]);
    expect(diagonalRuns(figure5, 2)).toEqual([
      { aStart: 1, bStart: 1, length: 4 },
      { aStart: 5, bStart: 0, length: 2 },
      { aStart: 6, bStart: 6, length: 3 },
    ]);
    expect(diagonalRuns(figure5, 1)).toHaveLength(4);
    expect(diagonalRuns(figure5, 5)).toEqual([]);
  });

  it('does not depend on the order the pairs arrive in (a reducer must not)', () => {
    const reversed = [...figure5].reverse();
    const shuffled = [figure5[7], figure5[2], figure5[9], figure5[0], figure5[5], figure5[3], figure5[8], figure5[1], figure5[6], figure5[4]];
    expect(diagonalRuns(reversed, 3)).toEqual(diagonalRuns(figure5, 3));
    expect(diagonalRuns(shuffled as typeof figure5, 2)).toEqual(diagonalRuns(figure5, 2));
  });

  it('equals Algorithm 2 as printed on random matrices, pairs repeated and in any order', () => {
    const random = mulberry32(3);
    for (let t = 0; t < 300; t++) {
      const size = 2 + Math.floor(random() * 12);
      const pairs: SentencePair[] = [];
      const n = Math.floor(random() * size * 3);
      for (let i = 0; i < n; i++) {
        const a = Math.floor(random() * size);
        const b = Math.floor(random() * size);
        pairs.push({ a, b });
        // grow diagonals more often than chance would
        if (random() < 0.5) pairs.push({ a: a + 1, b: b + 1 });
      }
      for (const gamma of [1, 2, 3]) expect(diagonalRuns(pairs, gamma)).toEqual(algorithm2(pairs, gamma));
    }
  });

  it('scores the share of the shorter document covered', () => {
    // γ = 3: d_j (9 sentences) is shorter; covered b = {1,2,3,4,6,7,8}: 7/9
    expect(coverageScore(diagonalRuns(figure5, 3), 10, 9)).toBeCloseTo(7 / 9, 15);
    // equal lengths take the larger share; a sentence covered twice counts once
    const twice = [{ aStart: 0, bStart: 0, length: 2 }, { aStart: 0, bStart: 3, length: 2 }];
    // a covers {0,1}: 2/4; b covers {0,1,3,4}: 4/4
    expect(coverageScore(twice, 4, 4)).toBe(1);
    expect(coverageScore(twice, 4, 5)).toBe(0.5);
  });
});
