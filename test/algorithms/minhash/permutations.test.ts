/** The hash functions drawn from the seed. SplitMix64's reference outputs are from its published C code. */
import { describe, expect, it } from 'vitest';
import { densifyHash, permutationWords, SplitMix64 } from '../../../algorithms/minhash/permutations.ts';

const P = (1n << 61n) - 1n;
const big = (w: Uint32Array, i: number): bigint => (BigInt(w[i] as number) << 32n) | BigInt(w[i + 1] as number);

describe('SplitMix64', () => {
  it("gives the reference outputs for state 0 (Vigna's splitmix64.c, x = 0)", () => {
    const g = new SplitMix64(0n);
    expect([g.next(), g.next(), g.next()]).toEqual([0xe220a8397b1dcdafn, 0x6e789e6aa1b965f4n, 0x06c45d188009454fn]);
  });
});

describe('permutationWords', () => {
  it('draws a in [1, p) and b in [0, p), the same for the same seed', () => {
    const w = permutationWords(42, 512);
    for (let i = 0; i < 512; i++) {
      const a = big(w, 4 * i);
      const b = big(w, 4 * i + 2);
      expect(a >= 1n && a < P).toBe(true);
      expect(b >= 0n && b < P).toBe(true);
      expect(w[4 * i]! < 2 ** 29 && w[4 * i + 2]! < 2 ** 29).toBe(true);
    }
    expect(permutationWords(42, 512)).toEqual(w);
  });

  it('nests: the first k functions do not depend on how many are drawn', () => {
    expect(permutationWords(7, 200).subarray(0, 4 * 64)).toEqual(permutationWords(7, 64));
  });

  it('gives unrelated functions for neighbouring seeds (no shared or shifted draws)', () => {
    const seen = new Set<bigint>();
    for (let seed = 0; seed < 50; seed++) {
      const w = permutationWords(seed, 64);
      for (let i = 0; i < 128; i++) seen.add(big(w, 2 * i));
    }
    expect(seen.size).toBe(50 * 128);
  });

  it('refuses a seed that is not a non-negative integer', () => {
    expect(() => permutationWords(-1, 4)).toThrow(/seed/);
    expect(() => permutationWords(1.5, 4)).toThrow(/seed/);
  });

  it('draws the densification hash from its own stream', () => {
    const h = densifyHash(42);
    expect(densifyHash(42)).toEqual(h);
    expect(densifyHash(43)).not.toEqual(h);
    const w = permutationWords(42, 1);
    expect([h.cHi, h.cLo]).not.toEqual([w[0], w[1]]);
  });
});
