/**
 * Bands and rows chosen for a threshold as datasketch chooses them. The expected (b, r) and the
 * integrals were computed with datasketch itself (ekzhu/datasketch at 8d4bda1, scipy 1.17):
 *   from datasketch.lsh import _optimal_param, _false_positive_probability, _false_negative_probability
 *   _optimal_param(t, k, w_fp, w_fn)
 */
import { describe, expect, it } from 'vitest';
import {
  candidateProbability,
  falseNegativeArea,
  falsePositiveArea,
  integrate,
  optimalBandsRows,
} from '../../../algorithms/minhash/lsh-params.ts';

// k → [t, b, r] for weights (0.5, 0.5)
const DATASKETCH: Record<number, [number, number, number][]> = {
  16: [[0.3, 8, 2], [0.5, 5, 3], [0.7, 3, 5], [0.8, 2, 8], [0.9, 1, 15]],
  32: [[0.3, 12, 2], [0.5, 8, 4], [0.7, 5, 6], [0.8, 3, 10], [0.9, 2, 16]],
  64: [[0.3, 21, 3], [0.5, 14, 4], [0.7, 8, 8], [0.8, 5, 11], [0.9, 3, 21]],
  128: [[0.3, 37, 3], [0.5, 25, 5], [0.7, 14, 9], [0.8, 9, 13], [0.9, 5, 25]],
  256: [[0.3, 64, 4], [0.5, 42, 6], [0.7, 25, 10], [0.8, 17, 15], [0.9, 9, 28]],
};

// [w_fp, w_fn, t, b, r] at k = 128
const WEIGHTED: [number, number, number, number, number][] = [
  [0.3, 0.7, 0.5, 25, 5],
  [0.3, 0.7, 0.8, 11, 11],
  [0.7, 0.3, 0.5, 21, 6],
  [0.7, 0.3, 0.8, 8, 16],
  [0.1, 0.9, 0.5, 32, 4],
  [0.1, 0.9, 0.8, 14, 9],
];

describe('optimalBandsRows', () => {
  for (const [k, rows] of Object.entries(DATASKETCH)) {
    it(`matches datasketch's _optimal_param for k = ${k}`, () => {
      for (const [t, b, r] of rows) expect(optimalBandsRows(t, Number(k), 0.5, 0.5), `t = ${t}`).toEqual({ bands: b, rows: r });
    });
  }

  it.each(WEIGHTED)("matches datasketch's choice for weights (%s, %s) at t = %s, k = 128", (wfp, wfn, t, b, r) => {
    expect(optimalBandsRows(t, 128, wfp, wfn)).toEqual({ bands: b, rows: r });
  });

  it('matches datasketch for k = 512 at t = 0.5 and 0.9', () => {
    expect(optimalBandsRows(0.5, 512, 0.5, 0.5)).toEqual({ bands: 73, rows: 7 });
    expect(optimalBandsRows(0.9, 512, 0.5, 0.5)).toEqual({ bands: 16, rows: 32 });
  });
});

describe('the false positive and negative areas', () => {
  it('equal scipy.integrate.quad of the S-curve', () => {
    // _false_positive_probability / _false_negative_probability printed with repr()
    expect(falsePositiveArea(0.5, 25, 5)).toBeCloseTo(0.053721591197238995, 13);
    expect(falseNegativeArea(0.5, 25, 5)).toBeCloseTo(0.03375250944883258, 13);
    expect(falsePositiveArea(0.8, 9, 13)).toBeCloseTo(0.025311863203367216, 13);
    expect(falseNegativeArea(0.8, 9, 13)).toBeCloseTo(0.033282136012204096, 13);
  });

  it('add up to what the S-curve gives in closed form for b = 1', () => {
    // b = 1: P(s) = s^r, so FP = t^(r+1)/(r+1) and FN = (1 − t) − (1 − t^(r+1))/(r+1)
    for (const [t, r] of [[0.5, 3], [0.8, 10], [0.3, 1]] as const) {
      expect(falsePositiveArea(t, 1, r)).toBeCloseTo(t ** (r + 1) / (r + 1), 13);
      expect(falseNegativeArea(t, 1, r)).toBeCloseTo(1 - t - (1 - t ** (r + 1)) / (r + 1), 13);
    }
  });

  it('integrate is exact for polynomials the 15-point rule covers, and adapts for others', () => {
    expect(integrate((x) => x ** 7 - 3 * x ** 2, 0, 2)).toBeCloseTo(2 ** 8 / 8 - 8, 12);
    expect(integrate(Math.sin, 0, Math.PI)).toBeCloseTo(2, 12);
    expect(integrate((x) => Math.sqrt(x), 0, 1)).toBeCloseTo(2 / 3, 10);
  });

  it('candidateProbability is the S-curve 1 − (1 − J^r)^b', () => {
    expect(candidateProbability(0.5, 25, 5)).toBeCloseTo(1 - (1 - 1 / 32) ** 25, 15);
    expect(candidateProbability(1, 3, 4)).toBe(1);
    expect(candidateProbability(0, 3, 4)).toBe(0);
  });
});
