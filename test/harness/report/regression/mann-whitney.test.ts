import { describe, expect, it } from 'vitest';
import { mannWhitneyU } from '../../../../harness/report/regression/mann-whitney.ts';

/** U by its definition: pairs (x, y) with x > y, ties counting one half. */
function naiveU(x: readonly number[], y: readonly number[]): number {
  let u = 0;
  for (const a of x) for (const b of y) u += a > b ? 1 : a === b ? 0.5 : 0;
  return u;
}

describe('mannWhitneyU', () => {
  it('matches a hand-worked example with ties', () => {
    // x = 3 4 2 6 2 5, y = 9 7 5 10 6 8. Pooled ranks: 2,2 → 1.5; 3 → 3; 4 → 4; 5,5 → 5.5; 6,6 → 7.5; 7 → 9 …
    // R(x) = 3 + 4 + 1.5 + 7.5 + 1.5 + 5.5 = 23, U = 23 − 6·7/2 = 2.
    // Ties: three pairs, Σ(t³ − t) = 18; σ² = 6·6/12 · (13 − 18/(12·11)) = 38.5909…; z = (2 − 18)/σ = −2.57559.
    // p = erfc(2.57559/√2) = 0.010007 (two-sided).
    const r = mannWhitneyU([3, 4, 2, 6, 2, 5], [9, 7, 5, 10, 6, 8]);
    expect(r.u).toBe(2);
    expect(r.z).toBeCloseTo(-2.57559, 4);
    expect(r.p).toBeCloseTo(0.010007, 5);
  });

  it('gives p = 0.0495 for three values a side completely separated (no ties)', () => {
    // U = 0, σ² = 3·3·7/12 = 5.25, z = −4.5/√5.25 = −1.96396, p = erfc(1.96396/√2) = 0.04953.
    const r = mannWhitneyU([1, 2, 3], [4, 5, 6]);
    expect(r.u).toBe(0);
    expect(r.z).toBeCloseTo(-1.96396, 4);
    expect(r.p).toBeCloseTo(0.04953, 4);
  });

  it('is symmetric: swapping the samples mirrors U and keeps p', () => {
    const a = mannWhitneyU([1.1, 2.4, 0.7, 3.3], [2.0, 2.5, 4.1, 3.9, 1.6]);
    const b = mannWhitneyU([2.0, 2.5, 4.1, 3.9, 1.6], [1.1, 2.4, 0.7, 3.3]);
    expect(a.u + b.u).toBe(20);
    expect(a.p).toBeCloseTo(b.p, 12);
  });

  it('agrees with U counted pair by pair', () => {
    const x = [0.31, 0.29, 0.35, 0.31, 0.4, 0.28, 0.33];
    const y = [0.3, 0.31, 0.36, 0.27, 0.31, 0.34];
    expect(mannWhitneyU(x, y).u).toBe(naiveU(x, y));
  });

  it('gives p = 1 when every value is the same', () => {
    expect(mannWhitneyU([2, 2, 2], [2, 2, 2]).p).toBe(1);
  });
});
