/**
 * Suffix filter, verification and signature bitmaps. The suffix filter's examples are worked by
 * hand from Xiao et al.'s partition argument; its soundness and the signature bound are checked
 * against |x Δ y| counted directly on random sets.
 */
import { describe, expect, it } from 'vitest';
import { firstCommon, overlapAtLeast, suffixHammingBound } from '../../../algorithms/ppjoin/sets.ts';
import { addToSignature, signatureDistance, signatureFromHex, signatureHex } from '../../../algorithms/ppjoin/signature.ts';
import { mulberry32 } from '../text/random-text.ts';

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

function randomSet(random: () => number, size: number, universe: number): number[] {
  const s = new Set<number>();
  while (s.size < size) s.add(Math.floor(random() * universe));
  return [...s].sort((a, b) => a - b);
}

function hamming(x: readonly number[], y: readonly number[]): number {
  const Y = new Set(y);
  let common = 0;
  for (const v of x) if (Y.has(v)) common++;
  return x.length + y.length - 2 * common;
}

describe('suffix filter', () => {
  it('bounds disjoint halves by hand', () => {
    // x = 1..10, y = 11..20: w = y[5] = 16, no x token is >= 16, so xl = x (10), xr = ∅, yl = 11..15
    // (5), yr = 17..20 (4), w ∉ x: |10 − 5| + |0 − 4| + 1 = 10 > hmax 5, returned at once.
    expect(suffixHammingBound(range(1, 11), 0, 10, range(11, 21), 0, 10, 5, 2)).toBe(10);
    // with room (hmax 20) it recurses: left x = 1..10 vs y = 11..15 splits at w = 13: |10 − 2| + |0 − 2|
    // + 1 = 11; total 11 + 4 + 1 = 16 <= 20; right ∅ vs 17..20 gives 4: 11 + 4 + 1 = 16. True |Δ| = 20.
    expect(suffixHammingBound(range(1, 11), 0, 10, range(11, 21), 0, 10, 20, 2)).toBe(16);
  });

  it('finds nothing to prune in equal sets and is exact on size differences', () => {
    expect(suffixHammingBound(range(0, 50), 0, 50, range(0, 50), 0, 50, 0, 3)).toBe(0);
    // depth 0: only the size difference
    expect(suffixHammingBound(range(0, 30), 0, 30, range(0, 20), 0, 20, 100, 0)).toBe(10);
  });

  it('never exceeds the true symmetric difference (random sets, depths 1 to 4)', () => {
    const random = mulberry32(11);
    let pruned = 0;
    const wrong: string[] = [];
    for (let k = 0; k < 3000; k++) {
      const x = randomSet(random, 1 + Math.floor(random() * 40), 80);
      const y = randomSet(random, 1 + Math.floor(random() * 40), 80);
      const h = hamming(x, y);
      const depth = 1 + (k % 4);
      const hmax = Math.floor(random() * (x.length + y.length));
      const bound = suffixHammingBound(x, 0, x.length, y, 0, y.length, hmax, depth);
      if (bound > h) wrong.push(`${JSON.stringify(x)} ${JSON.stringify(y)} bound ${bound} > ${h}`);
      if (bound > hmax) pruned++;
    }
    expect(wrong).toEqual([]);
    // it does prune: a filter that never fires would pass this test too
    expect(pruned).toBeGreaterThan(300);
  });
});

describe('verification', () => {
  it('counts the overlap exactly and stops when α is out of reach', () => {
    const random = mulberry32(5);
    for (let k = 0; k < 500; k++) {
      const x = randomSet(random, 1 + Math.floor(random() * 30), 50);
      const y = randomSet(random, 1 + Math.floor(random() * 30), 50);
      const o = (x.length + y.length - hamming(x, y)) / 2;
      const alpha = 1 + Math.floor(random() * 30);
      expect(overlapAtLeast(x, 0, x.length, y, 0, y.length, 0, alpha)).toBe(o >= alpha ? o : -1);
    }
    expect(firstCommon([1, 4, 7, 9], 4, [2, 3, 7, 9], 4)).toEqual([2, 2]);
    expect(firstCommon([1, 4], 2, [2, 3], 2)).toBeNull();
  });
});

describe('signature bitmaps', () => {
  it('differ in no more bits than the sets differ in tokens', () => {
    const random = mulberry32(3);
    const wrong: string[] = [];
    let tight = 0;
    for (let k = 0; k < 2000; k++) {
      const x = randomSet(random, 1 + Math.floor(random() * 300), 2000);
      const y = random() < 0.5 ? randomSet(random, 1 + Math.floor(random() * 300), 2000) : x.filter(() => random() < 0.8);
      const bits = 32 << (k % 4);
      const sx = new Uint32Array(bits / 32);
      const sy = new Uint32Array(bits / 32);
      for (const v of x) addToSignature(sx, 0, Math.imul(v, 2654435761) >>> 0, bits);
      for (const v of y) addToSignature(sy, 0, Math.imul(v, 2654435761) >>> 0, bits);
      const d = signatureDistance(sx, 0, sy, 0, bits / 32);
      const h = hamming(x, y);
      if (d > h) wrong.push(`${d} > ${h}`);
      if (d * 2 > h) tight++;
    }
    expect(wrong).toEqual([]);
    expect(tight).toBeGreaterThan(100);
  });

  it('round-trips through hex', () => {
    const s = Uint32Array.of(0, 0xffffffff, 0x12345678, 1);
    expect(signatureHex(s)).toBe('00000000ffffffff1234567800000001');
    expect(signatureFromHex(signatureHex(s), 4)).toEqual(s);
  });
});
