import { describe, expect, it } from 'vitest';
import {
  bitSums,
  fingerprintFromHex,
  fingerprintToHex,
  hamming,
  popcount32,
  simhashInto,
  simhashScore,
} from '../../../algorithms/simhash/fingerprint.ts';

/**
 * Table 3.1 of the simhash thesis: five features, their weights and 4-bit hashes. Each 4-bit
 * hash is placed in the top four bits of a 64-bit hash (the rest 0, so every other bit sums
 * to minus the total weight and comes out 0).
 */
const table31 = [
  ['medicare', 0.09, '1001'],
  ['plan', 0.01, '1110'],
  ['democrats', 0.06, '0010'],
  ['health', 0.05, '0101'],
  ['negotiate', 0.04, '1101'],
] as const;

function features(rows: readonly (readonly [string, number, string])[]) {
  return {
    count: rows.length,
    hi: Uint32Array.from(rows, (r) => parseInt(r[2], 2) << 28 >>> 0),
    lo: new Uint32Array(rows.length),
    weight: Float64Array.from(rows, (r) => r[1]),
  };
}

function simhashHex(f: ReturnType<typeof features>): string | null {
  const out = new Uint32Array(2);
  return simhashInto(f.count, f.hi, f.lo, f.weight, out, 0) ? fingerprintToHex(out[0] as number, out[1] as number) : null;
}

describe('simhash of weighted features (thesis Table 3.1)', () => {
  it("sums each bit's weights as the table's Sum row: +0.03 -0.05 -0.11 +0.11", () => {
    const f = features(table31);
    const sums = bitSums(f.count, f.hi, f.lo, f.weight);
    expect(sums[0]).toBeCloseTo(0.03, 12);
    expect(sums[1]).toBeCloseTo(-0.05, 12);
    expect(sums[2]).toBeCloseTo(-0.11, 12);
    expect(sums[3]).toBeCloseTo(0.11, 12);
    // the 60 bits no hash sets: minus the total weight 0.25
    for (let j = 4; j < 64; j++) expect(sums[j]).toBeCloseTo(-0.25, 12);
  });

  it('gives the final simhash 1001 (then 60 zero bits)', () => {
    expect(simhashHex(features(table31))).toBe('9000000000000000');
  });

  it('is unchanged without the light feature "plan", and changes without "medicare" (the caption)', () => {
    expect(simhashHex(features(table31.filter((r) => r[0] !== 'plan')))).toBe('9000000000000000');
    // without medicare the sums are -0.06 +0.04 -0.02 +0.02: 0101
    expect(simhashHex(features(table31.filter((r) => r[0] !== 'medicare')))).toBe('5000000000000000');
  });

  it('uses the low word for bits 32 to 63 and ignores features of weight 0', () => {
    const f = {
      count: 2,
      hi: Uint32Array.of(0, 0xffffffff),
      lo: Uint32Array.of(0x00000001, 0x80000000),
      weight: Float64Array.of(1, 0),
    };
    expect(simhashHex(f)).toBe('0000000000000001');
  });

  it('gives no fingerprint when no weight is positive', () => {
    expect(simhashHex({ count: 1, hi: Uint32Array.of(1), lo: Uint32Array.of(1), weight: Float64Array.of(0) })).toBeNull();
    expect(simhashHex({ count: 0, hi: new Uint32Array(0), lo: new Uint32Array(0), weight: new Float64Array(0) })).toBeNull();
  });
});

describe('Hamming distance and score', () => {
  it('counts differing bits as a bit-by-bit loop does', () => {
    let x = 0x9e3779b9;
    for (let t = 0; t < 2000; t++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      let naive = 0;
      for (let j = 0; j < 32; j++) naive += (x >>> j) & 1;
      expect(popcount32(x)).toBe(naive);
    }
    expect(hamming(0xffffffff, 0xffffffff, 0, 0)).toBe(64);
    expect(hamming(0x80000000, 1, 0, 0)).toBe(2);
  });

  it('scores 1 − d/64', () => {
    expect(simhashScore(0)).toBe(1);
    expect(simhashScore(3)).toBe(61 / 64);
    expect(simhashScore(64)).toBe(0);
  });

  it('writes and reads 16 hex digits', () => {
    expect(fingerprintToHex(0x0000abcd, 0x12)).toBe('0000abcd00000012');
    expect(fingerprintFromHex('0000abcd00000012')).toEqual([0xabcd, 0x12]);
    expect(() => fingerprintFromHex('xyz')).toThrow(/16 hex digits/);
  });
});
