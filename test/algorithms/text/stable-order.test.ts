/** The shared stable radix orders against a comparison sort of the same entries (brute force). */
import { describe, expect, it } from 'vitest';
import { countingOrder, pairOrder, radixOrder } from '../../../algorithms/text/stable-order.ts';
import { mulberry32 } from './random-text.ts';

describe('radixOrder, countingOrder and pairOrder', () => {
  it('order pairs by (a, b), ties in entry order, as a stable comparison sort does', () => {
    const random = mulberry32(11);
    for (const [n, range] of [[0, 1], [1, 5], [200, 7], [5000, 70000], [3000, 200000]] as const) {
      const a = Uint32Array.from({ length: n }, () => Math.floor(random() * range));
      const b = Uint32Array.from({ length: n }, () => Math.floor(random() * range));
      const expected = Array.from({ length: n }, (_, i) => i).sort((x, y) => (a[x] as number) - (a[y] as number) || (b[x] as number) - (b[y] as number) || x - y);
      expect([...pairOrder(a, b, range)]).toEqual(expected);
      // the same order by 32-bit keys, b least significant
      expect([...radixOrder([b, a], Uint32Array.from({ length: n }, (_, i) => i))]).toEqual(expected);
    }
  });

  it('counting order keeps a given order among equal keys', () => {
    const keys = Uint32Array.from([2, 0, 2, 1, 0]);
    // by hand: key 0 → entries 4, 1 (in the given order 4, 3, 2, 1, 0), key 1 → 3, key 2 → 2, 0
    expect([...countingOrder(keys, 3, Uint32Array.from([4, 3, 2, 1, 0]))]).toEqual([4, 1, 3, 2, 0]);
  });

  it('sorts a given order by several keys, the first least significant', () => {
    const lo = Uint32Array.from([3, 1, 2, 1, 0xffff0001]);
    const hi = Uint32Array.from([1, 1, 0, 0, 0]);
    // by (hi, lo): (0,1)=3, (0,2)=2, (0,0xffff0001)=4, (1,1)=1, (1,3)=0
    expect([...radixOrder([lo, hi], Uint32Array.from([0, 1, 2, 3, 4]))]).toEqual([3, 2, 4, 1, 0]);
  });
});
