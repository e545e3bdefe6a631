import { describe, expect, it } from 'vitest';
import { paretoFrontier } from '../../../harness/report/pareto.ts';

// Points by hand (x = runtime, y = quality):
//   a (1, 0.5)  b (2, 0.8)  c (3, 0.7)  d (4, 0.9)  e (2, 0.6)  f (5, 0.9)
const pts = [
  { x: 1, y: 0.5, n: 'a' },
  { x: 2, y: 0.8, n: 'b' },
  { x: 3, y: 0.7, n: 'c' },
  { x: 4, y: 0.9, n: 'd' },
  { x: 2, y: 0.6, n: 'e' },
  { x: 5, y: 0.9, n: 'f' },
];
const names = (ps: readonly { n: string }[]): string[] => ps.map((p) => p.n);

describe('paretoFrontier', () => {
  it('keeps the points nothing is faster and better than (higher quality better)', () => {
    // c is beaten by b (faster, better); e by b (same time, better); f by d (faster, same quality).
    expect(names(paretoFrontier(pts, { xLower: true, yHigher: true }))).toEqual(['a', 'b', 'd']);
  });

  it('follows the measure when lower is better (average error)', () => {
    // Lower y better: a (1, 0.5) beats everything slower with error >= 0.5, which is all of them.
    expect(names(paretoFrontier(pts, { xLower: true, yHigher: false }))).toEqual(['a']);
    const errs = [
      { x: 1, y: 0.4, n: 'p' },
      { x: 2, y: 0.1, n: 'q' },
      { x: 3, y: 0.2, n: 'r' },
      { x: 4, y: 0.05, n: 's' },
    ];
    expect(names(paretoFrontier(errs, { xLower: true, yHigher: false }))).toEqual(['p', 'q', 's']);
  });

  it('returns the frontier sorted by x whatever the input order', () => {
    const shuffled = [pts[3], pts[0], pts[5], pts[1], pts[4], pts[2]].filter((p) => p !== undefined);
    expect(names(paretoFrontier(shuffled, { xLower: true, yHigher: true }))).toEqual(['a', 'b', 'd']);
  });

  it('keeps one of two identical points and skips non-finite ones', () => {
    const same = [
      { x: 1, y: 1, n: 'first' },
      { x: 1, y: 1, n: 'second' },
      { x: Number.NaN, y: 2, n: 'nan' },
    ];
    expect(names(paretoFrontier(same, { xLower: true, yHigher: true }))).toEqual(['first']);
  });

  it('with higher x better, the largest x with the best y wins', () => {
    expect(names(paretoFrontier(pts, { xLower: false, yHigher: true }))).toEqual(['f']);
  });

  it('is empty for no points', () => {
    expect(paretoFrontier([], { xLower: true, yHigher: true })).toEqual([]);
  });
});
