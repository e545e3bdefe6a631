import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../../scripts/bench/median-interval.ts';

/** P(Binomial(n, 1/2) < j), summed term by term with BigInt binomials (exact). */
function below(n: number, j: number): number {
  let c = 1n;
  let sum = 0n;
  for (let i = 0; i < j; i++) {
    sum += c;
    c = (c * BigInt(n - i)) / BigInt(i + 1);
  }
  return Number(sum) / 2 ** n;
}

describe('medianInterval', () => {
  it('takes the 3rd and 10th of 12 values (coverage 1 − 2 · 79/4096), by hand', () => {
    const values = [12, 3, 7, 1, 9, 5, 11, 2, 8, 4, 10, 6];
    const r = medianInterval(values);
    expect([r?.low, r?.high]).toEqual([3, 10]);
    expect(r?.coverage).toBeCloseTo(1 - (2 * 79) / 4096, 12);
  });

  it('takes the whole range of 7 values, as even the 2nd would leave more than 2.5% out', () => {
    const r = medianInterval([5, 1, 4, 2, 7, 3, 6]);
    expect([r?.low, r?.high]).toEqual([1, 7]);
    expect(r?.coverage).toBeCloseTo(1 - 2 / 128, 12);
  });

  it('picks, for every n up to 60, the widest order statistic whose tail is at most 2.5% (exact binomials)', () => {
    for (let n = 1; n <= 60; n++) {
      const values = Array.from({ length: n }, (_, i) => n - i); // the i-th smallest is i
      let k = 1;
      while (k + 1 <= Math.floor((n + 1) / 2) && below(n, k + 1) <= 0.025) k++;
      const r = medianInterval(values);
      expect([r?.low, r?.high]).toEqual([k, n + 1 - k]);
      expect(r?.coverage).toBeCloseTo(1 - 2 * below(n, k), 10);
    }
  });

  it('gives nothing for no values', () => {
    expect(medianInterval([])).toBeUndefined();
  });
});
