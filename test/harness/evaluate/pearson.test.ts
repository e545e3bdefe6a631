import { sampleCorrelation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { pearson } from '../../../harness/evaluate/pearson.ts';
import { seededRandom } from './pairs.ts';

function r(x: number[], y: number[], n?: number): number {
  const result = pearson(Float64Array.from(x), Float64Array.from(y), n);
  if (result.kind !== 'ok') throw new Error(`expected a correlation, got ${result.kind}`);
  return result.r;
}

describe('pearson', () => {
  it('matches a hand computation', () => {
    // x = 1,2,3,4; y = 2,1,4,3. Means 2.5 and 2.5.
    // dx = -1.5,-0.5,0.5,1.5; dy = -0.5,-1.5,1.5,0.5
    // Sxy = 0.75+0.75+0.75+0.75 = 3; Sxx = Syy = 2.25+0.25+0.25+2.25 = 5 → r = 3/5
    expect(r([1, 2, 3, 4], [2, 1, 4, 3])).toBeCloseTo(0.6, 12);
  });

  it('agrees with simple-statistics sampleCorrelation on random data', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 20; trial++) {
      const x = Array.from({ length: 50 + trial * 37 }, random);
      // a partly dependent y, so r ranges away from 0
      const y = x.map((v) => (trial % 4) * v + random() - (trial % 2) * 2 * v);
      expect(r(x, y)).toBeCloseTo(sampleCorrelation(x, y), 12);
    }
  });

  it('uses only the first n values', () => {
    expect(r([1, 2, 3, 4, 100], [2, 1, 4, 3, -100], 4)).toBeCloseTo(0.6, 12);
  });

  it('stays accurate when r is close to 1 and the textbook formula cancels', () => {
    const random = seededRandom(3);
    const x = Array.from({ length: 10_000 }, () => 0.9 + 1e-7 * random());
    const y = x.map((v) => v + 1e-12 * random());
    const n = x.length;
    const sum = (v: number[]) => v.reduce((s, e) => s + e, 0);
    const textbook =
      (n * sum(x.map((v, i) => v * y[i]!)) - sum(x) * sum(y)) /
      (Math.sqrt(n * sum(x.map((v) => v * v)) - sum(x) ** 2) * Math.sqrt(n * sum(y.map((v) => v * v)) - sum(y) ** 2));
    // the data really is hard: equation 3.7 as written is far off (or NaN)
    expect(Number.isNaN(textbook) || Math.abs(textbook - 1) > 1e-3).toBe(true);
    expect(r(x, y)).toBeCloseTo(sampleCorrelation(x, y), 9);
    expect(r(x, y)).toBeGreaterThan(0.9999);
  });

  it('gives exactly 1 for identical data and never leaves [-1, 1]', () => {
    const random = seededRandom(4);
    const x = Array.from({ length: 1000 }, random);
    expect(r(x, x)).toBe(1);
    expect(r(x, x.map((v) => -v))).toBe(-1);
  });

  it('reports constant data instead of dividing by zero, even when the float mean is inexact', () => {
    // 0.1 * 3 / 3 !== 0.1 in floating point: centered sums would be tiny noise, not 0
    expect(pearson(Float64Array.of(0.1, 0.1, 0.1), Float64Array.of(1, 2, 3))).toEqual({ kind: 'constant', which: 'x' });
    expect(pearson(Float64Array.of(1, 2, 3), Float64Array.of(0.1, 0.1, 0.1))).toEqual({ kind: 'constant', which: 'y' });
    expect(pearson(Float64Array.of(5), Float64Array.of(7))).toEqual({ kind: 'constant', which: 'both' });
  });

  it('reports empty data', () => {
    expect(pearson(new Float64Array(0), new Float64Array(0))).toEqual({ kind: 'empty' });
  });
});
