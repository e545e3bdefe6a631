/** The specification of the index orders, pair lists and digit plans: a stable comparison sort of the same entries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitPlan, sortPairColumns, stableOrder } from '../../kernels/index.ts';

const word = fc.oneof(fc.constantFrom(0, 0xffff, 0x10000, 0xffffffff), fc.integer({ min: 0, max: 5 }), fc.nat({ max: 0xffffffff }));

function naiveOrder(keys: readonly Uint32Array[], order: readonly number[]): number[] {
  // Array.prototype.sort is stable: ties stay in the order given.
  return [...order].sort((x, y) => {
    for (const k of keys) if (k[x] !== k[y]) return (k[x] as number) - (k[y] as number);
    return 0;
  });
}

const columns = fc.record({ n: fc.integer({ min: 0, max: 400 }), k: fc.integer({ min: 0, max: 3 }) }).chain(({ n, k }) =>
  fc.record({
    keys: fc.array(fc.array(word, { minLength: n, maxLength: n }).map((a) => Uint32Array.from(a)), { minLength: k, maxLength: k }),
    n: fc.constant(n),
    // a given order: a shuffled subset of the entries
    order: fc.option(fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i))),
    digitBits: fc.option(fc.integer({ min: 1, max: 24 })),
  }),
);

describe('stableOrder', () => {
  it('orders entries by their keys, the first most significant, ties in the order given (property)', () => {
    fc.assert(
      fc.property(columns, ({ keys, n, order, digitBits }) => {
        // without keys or an order there are no entries to order
        const given = order ?? Array.from({ length: keys.length > 0 ? n : 0 }, (_, i) => i);
        const got = stableOrder(keys, { ...(order ? { order: Uint32Array.from(order) } : {}), ...(digitBits === null ? {} : { digitBits }) });
        expect(Array.from(got)).toEqual(naiveOrder(keys, given));
      }),
      { numRuns: 300 },
    );
  });

  it('orders document pairs by (a, b) past the comparison threshold, whatever the number of documents', () => {
    let seed = 11;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const [n, range] of [[5000, 70000], [3000, 200000], [9000, 7], [6000, 2 ** 32]] as const) {
      const a = Uint32Array.from({ length: n }, () => Math.floor(random() * range));
      const b = Uint32Array.from({ length: n }, () => Math.floor(random() * range));
      const expected = naiveOrder([a, b], Array.from({ length: n }, (_, i) => i));
      expect(Array.from(stableOrder([a, b]))).toEqual(expected);
      expect(Array.from(stableOrder([a, b], { digitBits: 24 }))).toEqual(expected);
    }
  });

  it('keeps a given order among equal keys (by hand)', () => {
    const keys = Uint32Array.from([2, 0, 2, 1, 0]);
    // key 0 → entries 4, 1 (in the given order 4, 3, 2, 1, 0), key 1 → 3, key 2 → 2, 0
    expect([...stableOrder([keys], { order: Uint32Array.from([4, 3, 2, 1, 0]) })]).toEqual([4, 1, 3, 2, 0]);
    const lo = Uint32Array.from([3, 1, 2, 1, 0xffff0001]);
    const hi = Uint32Array.from([1, 1, 0, 0, 0]);
    // by (hi, lo): (0,1)=3, (0,2)=2, (0,0xffff0001)=4, (1,1)=1, (1,3)=0
    expect([...stableOrder([hi, lo])]).toEqual([3, 2, 4, 1, 0]);
  });

  it('with no keys, gives the order as it is; with no entries, nothing', () => {
    expect([...stableOrder([], { order: Uint32Array.from([2, 0, 1]) })]).toEqual([2, 0, 1]);
    expect([...stableOrder([new Uint32Array(0)])]).toEqual([]);
  });
});

describe('sortPairColumns', () => {
  it('sorts pairs by (a, b) stably, each score with its pair (property)', () => {
    const pairs = fc.array(fc.tuple(fc.nat({ max: 70000 }), fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 0xffffffff })), fc.double({ noNaN: true })), { maxLength: 6000 });
    fc.assert(
      fc.property(pairs, (rows) => {
        const list = { a: Uint32Array.from(rows, (r) => r[0]), b: Uint32Array.from(rows, (r) => r[1]), score: Float64Array.from(rows, (r) => r[2]) };
        const expected = [...rows].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        const got = sortPairColumns(list);
        expect(Array.from(got.a)).toEqual(expected.map((r) => r[0]));
        expect(Array.from(got.b)).toEqual(expected.map((r) => r[1]));
        expect(Array.from(got.score)).toEqual(expected.map((r) => r[2]));
      }),
      { numRuns: 60 },
    );
  });
});

describe('digitPlan', () => {
  it('cuts a key into as few passes as the widest digit allows, each as narrow as they allow (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 32 }), fc.integer({ min: 1, max: 24 }), (keyBits, max) => {
        const { passes, digitBits } = digitPlan(keyBits, max);
        expect(passes * digitBits).toBeGreaterThanOrEqual(keyBits);
        expect(digitBits).toBeLessThanOrEqual(max);
        expect(passes).toBe(Math.ceil(keyBits / max));
        if (passes > 0) expect((passes - 1) * digitBits).toBeLessThan(keyBits);
      }),
    );
  });
});
