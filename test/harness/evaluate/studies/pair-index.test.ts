import { describe, expect, it } from 'vitest';
import { bestScoreWithin, firstPartnerRanks, indexPairs } from '../../../../harness/evaluate/studies/pair-index.ts';
import { ids, pairList, truth } from './pairs.ts';

function neighbours(index: ReturnType<typeof indexPairs>, d: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = index.start[d]!; k < index.start[d + 1]!; k++) out.push([index.other[k]!, index.score[k]!]);
  return out.sort((x, y) => x[0] - y[0]);
}

describe('indexPairs', () => {
  it('lists each pair under both of its documents', () => {
    const index = indexPairs(truth, ids.length);
    // From the pair list in pairs.ts: A is in A-B and A-G; B in A-B and B-H; Z in none.
    expect(neighbours(index, 0)).toEqual([
      [1, 0.9],
      [6, 0.6],
    ]);
    expect(neighbours(index, 1)).toEqual([
      [0, 0.9],
      [7, 0.3],
    ]);
    expect(neighbours(index, 8)).toEqual([]);
    expect(index.start[ids.length]).toBe(10);
  });

  it('rejects a pair outside the corpus (a bug upstream)', () => {
    expect(() => indexPairs(pairList([[0, 9, 0.5]]), 9)).toThrow(/need a < b < 9/);
  });
});

describe('bestScoreWithin', () => {
  it("takes each member's best score with another member only", () => {
    const index = indexPairs(truth, ids.length);
    const scratch = new Uint8Array(ids.length);
    // {A, G, H}: A-G 0.6 (A-B is out: B not a member); H's only pair is with B → none.
    const best = bestScoreWithin(index, [0, 6, 7], scratch);
    expect([...best]).toEqual([0.6, 0.6, -Infinity]);
    expect(scratch.every((x) => x === 0)).toBe(true);
  });
});

describe('firstPartnerRanks', () => {
  it('gives the best rank of a partner at or above the threshold, ignoring missing ranks', () => {
    const index = indexPairs(truth, ids.length);
    const rankOf = new Int32Array(ids.length).fill(-1);
    // ranks: 0 G, 1 missing, 2 C, 3 B, 4 A, 5 D
    // G: partner A (0.6) at rank 4. C: D (0.5) at 5. B: A (0.9) at 4; H not listed.
    // A: B (rank 3, 0.9) and G (rank 0, 0.6) → 0. D: C at 2.
    const partner = firstPartnerRanks(index, [6, -1, 2, 1, 0, 3], 0.5, rankOf);
    expect([...partner]).toEqual([4, Infinity, 5, 4, 0, 2]);
    expect(rankOf.every((x) => x === -1)).toBe(true);
  });

  it('does not count a pair below the threshold', () => {
    const index = indexPairs(truth, ids.length);
    const rankOf = new Int32Array(ids.length).fill(-1);
    // E-F scores 0.49 < 0.5.
    expect([...firstPartnerRanks(index, [4, 5], 0.5, rankOf)]).toEqual([Infinity, Infinity]);
    expect([...firstPartnerRanks(index, [4, 5], 0.49, rankOf)]).toEqual([1, 0]);
  });
});
