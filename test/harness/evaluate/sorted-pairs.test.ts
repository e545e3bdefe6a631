import { describe, expect, it } from 'vitest';
import { sortedPartOf, sortPairs } from '../../../harness/evaluate/sorted-pairs.ts';
import { pairList, randomPairs, rows, seededRandom } from './pairs.ts';

function naivelySorted(list: ReturnType<typeof pairList>): [number, number, number][] {
  return rows(list).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

describe('sortPairs', () => {
  it('orders a small list by (a, b), carrying each score with its pair', () => {
    const list = pairList([
      [2, 3, 0.1],
      [0, 5, 0.2],
      [0, 1, 0.3],
      [1, 2, 0.4],
    ]);
    expect(rows(sortPairs(list, 6, 'x'))).toEqual([
      [0, 1, 0.3],
      [0, 5, 0.2],
      [1, 2, 0.4],
      [2, 3, 0.1],
    ]);
  });

  it('agrees with a comparator sort on random pairs (one pass per index)', () => {
    const random = seededRandom(1);
    const list = randomPairs(5000, 300, random, random);
    expect(rows(sortPairs(list, 300, 'x'))).toEqual(naivelySorted(list));
  });

  it('agrees with a comparator sort when indexes need two radix passes (nDocs > 2^16)', () => {
    const random = seededRandom(2);
    const list = randomPairs(5000, 200_000, random, random);
    expect(rows(sortPairs(list, 200_000, 'x'))).toEqual(naivelySorted(list));
  });

  it('leaves its input untouched', () => {
    const list = pairList([
      [1, 2, 0.5],
      [0, 1, 0.25],
    ]);
    sortPairs(list, 3, 'x');
    expect(rows(list)).toEqual([
      [1, 2, 0.5],
      [0, 1, 0.25],
    ]);
  });

  it('throws on a pair that occurs twice, sorted or not', () => {
    const unsorted = pairList([
      [1, 4, 0.5],
      [0, 1, 0.5],
      [1, 4, 0.7],
    ]);
    expect(() => sortPairs(unsorted, 5, 'run')).toThrow('run: pair (1, 4) occurs more than once');
    const sorted = pairList([
      [0, 1, 0.5],
      [0, 1, 0.5],
    ]);
    expect(() => sortPairs(sorted, 5, 'run')).toThrow('run: pair (0, 1) occurs more than once');
  });

  it('throws on a pair with a >= b', () => {
    expect(() => sortPairs(pairList([[2, 2, 0.5]]), 5, 'truth')).toThrow('truth: pair 0 is (2, 2); need a < b < 5');
    expect(() => sortPairs(pairList([[3, 1, 0.5]]), 5, 'truth')).toThrow('pair 0 is (3, 1)');
  });

  it('throws on a document index outside the collection', () => {
    expect(() => sortPairs(pairList([[1, 5, 0.5]]), 5, 'truth')).toThrow('pair 0 is (1, 5); need a < b < 5');
  });

  it('throws on a score that is not a finite number', () => {
    expect(() => sortPairs(pairList([[0, 1, Number.NaN]]), 5, 'run')).toThrow('run: pair (0, 1) has score NaN');
  });

  it('throws when the arrays differ in length', () => {
    const list = { a: new Uint32Array([0, 1]), b: new Uint32Array([1, 2]), score: new Float64Array([0.5]) };
    expect(() => sortPairs(list, 5, 'run')).toThrow('run: pair arrays differ in length (a 2, b 2, score 1)');
  });
});

describe('sortedPartOf', () => {
  it('makes sortPairs give a part of a sorted list back as it is, without walking it again', () => {
    const whole = sortPairs(pairList([[0, 1, 0.3], [0, 5, 0.2], [1, 2, 0.4]]), 6, 'x');
    const part = pairList([[0, 1, 0.3], [1, 2, 0.4]]);
    sortedPartOf(part, whole, 6);
    expect(sortPairs(part, 6, 'x')).toBe(part);
  });

  it('refuses a whole list that sortPairs did not return', () => {
    const unsorted = pairList([[1, 2, 0.4], [0, 1, 0.3]]);
    expect(() => sortedPartOf(pairList([[0, 1, 0.3]]), unsorted, 6)).toThrow(/not sorted by sortPairs/);
  });
});
