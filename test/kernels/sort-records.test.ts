/**
 * The specification of `sortRecords`: on any records, the order of a stable comparison sort by
 * the key words (Array.prototype.sort is stable), owners moved with their records.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortRecords } from '../../kernels/index.ts';
import { scatterByTopBits, sortUniformKeys } from '../../kernels/sort/uniform-keys.ts';
import { mulberry32 } from '../algorithms/text/random-text.ts';

/** Word values that make equal keys, digits that all agree, and the extremes. */
const word = fc.oneof(fc.constantFrom(0, 1, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff), fc.integer({ min: 0, max: 3 }), fc.nat({ max: 0xffffffff }));

function naive(records: Uint32Array, owners: Uint32Array | undefined, width: number, keyWords: number, count: number): { records: number[]; owners: number[] | undefined } {
  const order = Array.from({ length: count }, (_, i) => i).sort((i, j) => {
    for (let w = 0; w < keyWords; w++) {
      const d = (records[i * width + w] as number) - (records[j * width + w] as number);
      if (d !== 0) return d;
    }
    return 0;
  });
  return {
    records: order.flatMap((i) => Array.from(records.subarray(i * width, (i + 1) * width))),
    owners: owners ? order.map((i) => owners[i] as number) : undefined,
  };
}

const input = fc
  .record({ width: fc.integer({ min: 1, max: 4 }), count: fc.integer({ min: 0, max: 300 }), digitBits: fc.integer({ min: 1, max: 24 }), withOwners: fc.boolean(), spare: fc.integer({ min: 0, max: 3 }) })
  .chain((s) =>
    fc.record({
      width: fc.constant(s.width),
      keyWords: fc.integer({ min: 0, max: s.width }),
      count: fc.constant(s.count),
      digitBits: fc.constant(s.digitBits),
      // with words past the `count` records, which the sort does not order
      words: fc.array(word, { minLength: (s.count + s.spare) * s.width, maxLength: (s.count + s.spare) * s.width }),
      owners: s.withOwners ? fc.array(fc.nat(), { minLength: s.count, maxLength: s.count }).map((o) => Uint32Array.from(o)) : fc.constant(undefined),
    }),
  );

describe('sortRecords', () => {
  it('orders records as a stable comparison sort does, for any digit width (property)', () => {
    fc.assert(
      fc.property(input, ({ width, keyWords, count, digitBits, words, owners }) => {
        const records = Uint32Array.from(words);
        const expected = naive(records, owners, width, keyWords, count);
        const sorted = sortRecords(records.slice(), { width, keyWords, count, digitBits, ...(owners ? { owners: owners.slice() } : {}) });
        expect(Array.from(sorted.records.subarray(0, count * width))).toEqual(expected.records);
        expect(sorted.owners && Array.from(sorted.owners.subarray(0, count))).toEqual(expected.owners);
      }),
      { numRuns: 300 },
    );
  });

  it('orders uniform keys with owners alike, through buckets by the top bits (property)', () => {
    const entries = fc.record({ width: fc.constantFrom(1, 2, 3, 4), tops: fc.integer({ min: 1, max: 40 }), n: fc.integer({ min: 0, max: 2000 }), seed: fc.nat() });
    fc.assert(
      fc.property(entries, ({ width, tops, n, seed }) => {
        const [keys, owners] = randomEntries(n, width, seed, tops);
        const expected = naive(keys, owners, width, width, n);
        const sorted = sortRecords(keys.slice(), { width, keyWords: width, owners: owners.slice(), keys: 'uniform' });
        expect(Array.from(sorted.records)).toEqual(expected.records);
        expect(Array.from(sorted.owners)).toEqual(expected.owners);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    [2, 5000, 65536], // a few entries a bucket: insertion
    [4, 5000, 20], // hundreds a bucket: the comparison sort
    [2, 3000, 1],
    [2, 5000, 20], // two-word keys, hundreds a bucket out of order
  ])('uniform width-%i keys: %i entries, %i top values, as a comparison sort', (width, n, tops) => {
    const [keys, owners] = randomEntries(n, width, n + tops, tops);
    const expected = naive(keys, owners, width, width, n);
    const sorted = sortRecords(keys.slice(), { width, keyWords: width, owners: owners.slice(), keys: 'uniform' });
    expect(Array.from(sorted.records)).toEqual(expected.records);
    expect(Array.from(sorted.owners)).toEqual(expected.owners);
  });

  it('leaves a big bucket of uniform keys already in order as it is, equal keys in the order they came', () => {
    const [keys, owners] = randomEntries(3000, 2, 7, 1);
    const sorted = Uint32Array.from(naive(keys, owners, 2, 2, 3000).records);
    // owners in reverse: equal keys must keep this order, not the owners' (stability)
    const reversed = Uint32Array.from({ length: 3000 }, (_, i) => 3000 - i);
    const out = sortRecords(sorted.slice(), { width: 2, keyWords: 2, owners: reversed.slice(), keys: 'uniform' });
    expect(Array.from(out.records)).toEqual(Array.from(sorted));
    expect(Array.from(out.owners)).toEqual(Array.from(reversed));
  });

  it('orders uniform keys past one bucket pass as a comparison sort does: a pass by the top bits first (property)', () => {
    const entries = fc.record({ width: fc.constantFrom(1, 2, 4), tops: fc.integer({ min: 1, max: 65536 }), n: fc.integer({ min: 0, max: 3000 }), passRecords: fc.integer({ min: 1, max: 500 }), seed: fc.nat() });
    fc.assert(
      fc.property(entries, ({ width, tops, n, passRecords, seed }) => {
        const [keys, owners] = randomEntries(n, width, seed, tops);
        const expected = naive(keys, owners, width, width, n);
        const sorted = sortUniformKeys(keys.slice(), owners.slice(), { width, count: n, passRecords });
        expect(Array.from(sorted.records)).toEqual(expected.records);
        expect(Array.from(sorted.owners)).toEqual(expected.owners);
      }),
      { numRuns: 60 },
    );
  });

  it('orders records that agree on their top bits, using only the bits after them, as a comparison sort does (property)', () => {
    const entries = fc.record({ width: fc.constantFrom(1, 2, 4), agree: fc.integer({ min: 1, max: 20 }), n: fc.integer({ min: 0, max: 2000 }), passRecords: fc.integer({ min: 1, max: 300 }), seed: fc.nat(), scratch: fc.boolean() });
    fc.assert(
      fc.property(entries, ({ width, agree, n, passRecords, seed, scratch }) => {
        const [keys, owners] = randomEntries(n, width, seed, 65536);
        // the same top `agree` bits in every first word, and ties among the bits below them
        const top = (seed % 2 ** agree) * 2 ** (32 - agree);
        for (let i = 0; i < n; i++) keys[i * width] = top + ((keys[i * width] as number) % Math.min(2 ** (32 - agree), 97));
        const expected = naive(keys, owners, width, width, n);
        const sorted = sortUniformKeys(keys.slice(), owners.slice(), {
          width,
          count: n,
          passRecords,
          agreeBits: agree,
          ...(scratch ? { scratch: { keys: new Uint32Array(n * width), owners: new Uint32Array(n) } } : {}),
        });
        expect(Array.from(sorted.records)).toEqual(expected.records);
        expect(Array.from(sorted.owners)).toEqual(expected.owners);
      }),
      { numRuns: 60 },
    );
  });

  it('scatters records stably into parts by their top bits, each part starting where it says', () => {
    const n = 500;
    const [keys, owners] = randomEntries(n, 2, 9, 65536);
    const to = new Uint32Array(2 * n);
    const toOwners = new Uint32Array(n);
    const start = scatterByTopBits(keys, owners, { width: 2, count: n, skip: 2, bits: 3, to, toOwners });
    const partOf = (hi: number): number => Math.floor((hi % 2 ** 30) / 2 ** 27);
    const expected = Array.from({ length: n }, (_, i) => i).sort((i, j) => partOf(keys[2 * i] as number) - partOf(keys[2 * j] as number) || i - j);
    expect(Array.from(toOwners)).toEqual(expected.map((i) => owners[i]));
    expect(Array.from(to)).toEqual(expected.flatMap((i) => [keys[2 * i], keys[2 * i + 1]]));
    expect(Array.from(start)).toEqual(Array.from({ length: 9 }, (_, q) => expected.filter((i) => partOf(keys[2 * i] as number) < q).length));
  });

  it('sorts uniform keys too many for one bucket pass, alike', () => {
    const n = 65536 * 32 + 1;
    const [keys, owners] = randomEntries(n, 2, 5, 65536);
    const { records: k, owners: o } = sortRecords(keys.slice(), { width: 2, keyWords: 2, owners: owners.slice(), keys: 'uniform' });
    for (let i = 1; i < n; i++) {
      const order = (k[2 * i - 2] as number) - (k[2 * i] as number) || (k[2 * i - 1] as number) - (k[2 * i + 1] as number) || (o[i - 1] as number) - (o[i] as number);
      if (order >= 0) throw new Error(`entries ${i - 1} and ${i} are out of order`);
    }
  });

  it('sorts records past the comparison threshold with 16-bit digits, as a comparison sort does', () => {
    for (const [n, range] of [[5000, 2 ** 32], [5000, 70000], [6000, 7]] as const) {
      const [keys] = randomEntries(n, 3, n, 1);
      for (let i = 0; i < 3 * n; i++) keys[i] = (keys[i] as number) % range;
      const expected = naive(keys, undefined, 3, 2, n);
      expect(Array.from(sortRecords(keys.slice(), { width: 3, keyWords: 2 }).records)).toEqual(expected.records);
    }
  });

  it('refuses a digit width or a shape it cannot sort', () => {
    expect(() => sortRecords(new Uint32Array(4), { width: 2, keyWords: 1, digitBits: 0 })).toThrow('digit width 0');
    expect(() => sortRecords(new Uint32Array(4), { width: 2, keyWords: 1, digitBits: 25 })).toThrow('digit width 25');
    expect(() => sortRecords(new Uint32Array(4), { width: 2, keyWords: 3 })).toThrow('key words');
    expect(() => sortRecords(new Uint32Array(4), { width: 2, keyWords: 1, count: 3 })).toThrow('more than the 4 words');
    expect(() => sortRecords(new Uint32Array(4), { width: 2, keyWords: 1, owners: new Uint32Array(1) })).toThrow('only 1 owners');
  });
});

/** Few distinct top halves and repeated keys: big buckets, equal keys from several owners. */
function randomEntries(n: number, width: number, seed: number, distinctTops: number): [Uint32Array, Uint32Array] {
  const random = mulberry32(seed);
  const keys = new Uint32Array(n * width);
  for (let i = 0; i < n * width; i++) keys[i] = Math.floor(random() * 2 ** 32) >>> 0;
  for (let i = 0; i < n; i++) keys[i * width] = ((Math.floor(random() * distinctTops) << 16) | ((keys[i * width] as number) & 0xffff)) >>> 0;
  for (let i = 1; i < n; i += 3) keys.copyWithin(i * width, (i - 1) * width, i * width);
  return [keys, Uint32Array.from({ length: n }, (_, i) => i)];
}
