/** The specification of `invertLists` and `listOffsets`: the postings a Map grouping of the lists' entries gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countsToStarts, invertLists, listOffsets } from '../../kernels/index.ts';

const lists = fc.record({ keys: fc.integer({ min: 1, max: 30 }), sizes: fc.array(fc.nat({ max: 8 }), { maxLength: 40 }), seed: fc.nat() }).chain(({ keys, sizes }) => {
  const total = sizes.reduce((s, x) => s + x, 0);
  return fc.record({
    keys: fc.constant(keys),
    sizes: fc.constant(sizes),
    entries: fc.array(fc.nat({ max: keys - 1 }), { minLength: total, maxLength: total }).map((e) => Uint32Array.from(e)),
    // each list keeps a prefix of its entries (listEnd), or all of them
    kept: fc.option(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: sizes.length, maxLength: sizes.length })),
  });
});

describe('invertLists', () => {
  it('gives each key the lists holding it, ascending, with the positions asked for (property)', () => {
    fc.assert(
      fc.property(lists, ({ keys, sizes, entries, kept }) => {
        const listStart = listOffsets(sizes);
        const listEnd = kept ? Uint32Array.from(sizes, (s, l) => (listStart[l] as number) + Math.floor(s * (kept[l] as number))) : undefined;
        const end = (l: number): number => (listEnd ? (listEnd[l] as number) : (listStart[l + 1] as number));
        // The naive postings: for each key, (list, position in list, entry index) in list order.
        const byKey = new Map<number, [number, number, number][]>();
        sizes.forEach((_, l) => {
          for (let q = listStart[l] as number; q < end(l); q++) {
            const k = entries[q] as number;
            byKey.set(k, [...(byKey.get(k) ?? []), [l, q - (listStart[l] as number), q]]);
          }
        });
        const base = { keys, entries, listStart: listEnd ? listStart.subarray(0, sizes.length) : listStart, ...(listEnd ? { listEnd } : {}) };
        const inList = invertLists({ ...base, positions: 'in-list' });
        const inPostings = invertLists({ ...base, positions: 'in-postings' });
        const plain = invertLists(base);
        expect(plain.positions).toBeUndefined();
        const entryPos = new Map<number, number>();
        for (let k = 0; k < keys; k++) {
          const want = byKey.get(k) ?? [];
          const from = inList.start[k] as number;
          const to = inList.start[k + 1] as number;
          expect(Array.from(inList.lists.subarray(from, to))).toEqual(want.map((p) => p[0]));
          expect(Array.from(inList.positions!.subarray(from, to))).toEqual(want.map((p) => p[1]));
          expect(Array.from(plain.lists.subarray(from, to))).toEqual(want.map((p) => p[0]));
          want.forEach((p, i) => entryPos.set(p[2], i));
        }
        expect(Array.from(inPostings.start)).toEqual(Array.from(inList.start));
        for (const [q, i] of entryPos) expect(inPostings.positions![q]).toBe(i);
      }),
      { numRuns: 300 },
    );
  });

  it('inverts only the lists kept, as if the others were empty (property)', () => {
    fc.assert(
      fc.property(lists, fc.array(fc.boolean(), { maxLength: 40 }), ({ keys, sizes, entries }, flags) => {
        const listStart = listOffsets(sizes);
        const keep = Uint8Array.from(sizes, (_, l) => (flags[l] ? 1 : 0));
        const listEnd = Uint32Array.from(sizes, (_, l) => (listStart[keep[l] ? l + 1 : l] as number));
        const want = invertLists({ keys, entries, listStart: listStart.subarray(0, sizes.length), listEnd, positions: 'in-list' });
        const got = invertLists({ keys, entries, listStart, keep, positions: 'in-list' });
        expect([Array.from(got.start), Array.from(got.lists), Array.from(got.positions)]).toEqual([Array.from(want.start), Array.from(want.lists), Array.from(want.positions)]);
        // with the offsets given, the same
        const given = invertLists({ keys, entries, listStart, keep, start: want.start.slice(), positions: 'in-list' });
        expect(Array.from(given.lists)).toEqual(Array.from(want.lists));
      }),
      { numRuns: 200 },
    );
  });

  it('writes into the arrays `allocate` makes (shared, for worker threads)', () => {
    const shared = (n: number): Uint32Array => new Uint32Array(new SharedArrayBuffer(4 * n));
    const p = invertLists({ keys: 2, entries: Uint32Array.from([1, 0, 1]), listStart: Uint32Array.from([0, 2, 3]), positions: 'in-list', allocate: shared });
    expect(p.start.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(p.lists.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(p.positions!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...p.start]).toEqual([0, 1, 3]);
    expect([...p.lists]).toEqual([0, 0, 1]);
    expect([...p.positions!]).toEqual([1, 0, 0]);
  });

  it('with no lists, gives empty postings', () => {
    const p = invertLists({ keys: 3, entries: new Uint32Array(0), listStart: Uint32Array.from([0]) });
    expect([...p.start]).toEqual([0, 0, 0, 0]);
    expect(p.lists.length).toBe(0);
  });
});

describe('listOffsets and countsToStarts', () => {
  it('are the running sums of the sizes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 2 ** 20 })), (sizes) => {
        const sums = sizes.reduce<number[]>((s, x) => [...s, (s[s.length - 1] as number) + x], [0]);
        expect(Array.from(listOffsets(sizes))).toEqual(sums);
        expect(Array.from(listOffsets(sizes, { into: new Float64Array(sizes.length + 1) }))).toEqual(sums);
        const counts = Uint32Array.from(sizes);
        expect(countsToStarts(counts)).toBe(sums[sizes.length]);
        expect(Array.from(counts)).toEqual(sums.slice(0, sizes.length));
      }),
    );
  });

  it('past 2^32 in a Float64Array', () => {
    expect(Array.from(listOffsets([2 ** 32 - 1, 2 ** 32 - 1], { into: new Float64Array(3) }))).toEqual([0, 2 ** 32 - 1, 2 ** 33 - 2]);
  });
});
