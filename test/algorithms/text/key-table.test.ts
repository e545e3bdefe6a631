import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../../algorithms/text/key-table.ts';

/** The reference: ids in first-seen order from a Map over the keys written out. */
function referenceIds(data: Uint32Array, width: number): { ids: number[]; keys: number[] } {
  const seen = new Map<string, number>();
  const ids: number[] = [];
  const keys: number[] = [];
  for (let at = 0; at < data.length; at += width) {
    const words = [...data.subarray(at, at + width)];
    const k = words.join(',');
    let id = seen.get(k);
    if (id === undefined) {
      seen.set(k, (id = seen.size));
      keys.push(...words);
    }
    ids.push(id);
  }
  return { ids, keys };
}

/** A small deterministic generator (xorshift32), so the keys repeat and share low bits. */
function keys(n: number, width: number, distinct: number, seed: number): Uint32Array {
  let x = seed;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const pool = Array.from({ length: distinct }, (_, i) =>
    // low words alike (multiples of 2^20), so the table cannot rely on them alone
    Array.from({ length: width }, (_, k) => (k === width - 1 ? (i << 20) >>> 0 : next())),
  );
  const out = new Uint32Array(n * width);
  for (let i = 0; i < n; i++) out.set(pool[next() % distinct] as number[], i * width);
  return out;
}

describe('KeyTable', () => {
  it.each([1, 2, 5])('numbers distinct keys of width %i in first-seen order, as a Map does, through growth', (width) => {
    const data = keys(20_000, width, 3_000, 12345 + width);
    const table = new KeyTable(width);
    const ids = Array.from({ length: 20_000 }, (_, i) => table.id(data, i * width));
    const ref = referenceIds(data, width);
    expect(ids).toEqual(ref.ids);
    expect(table.size).toBe(ref.keys.length / width);
    expect([...table.keys()]).toEqual(ref.keys);
  });

  it('forgets everything on clear, and numbers from 0 again', () => {
    const t = new KeyTable(2);
    const k = Uint32Array.of(1, 2, 3, 4, 1, 2);
    expect([t.id(k, 0), t.id(k, 2), t.id(k, 4)]).toEqual([0, 1, 0]);
    t.clear();
    expect(t.size).toBe(0);
    expect([t.id(k, 2), t.id(k, 0)]).toEqual([0, 1]);
    expect([...t.keys()]).toEqual([3, 4, 1, 2]);
  });

  it('tells apart keys that differ in one word only', () => {
    const t = new KeyTable(2);
    const k = Uint32Array.of(0, 0, 0, 1, 1, 0, 0xffffffff, 0, 0, 0xffffffff, 0, 0);
    expect([0, 1, 2, 3, 4, 5].map((i) => t.id(k, 2 * i))).toEqual([0, 1, 2, 3, 4, 0]);
  });

  it('numbers two-word keys by id2 as a Map does, through growth, mixed with id and after clear', () => {
    const data = keys(20_000, 2, 3_000, 777);
    const ref = referenceIds(data, 2);
    const t = new KeyTable(2);
    // every third key through id, the rest through id2: one numbering
    const ids = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? t.id(data, 2 * i) : t.id2(data[2 * i] as number, data[2 * i + 1] as number)));
    expect(ids).toEqual(ref.ids);
    expect([...t.keys()]).toEqual(ref.keys);
    t.clear();
    expect([t.id2(5, 6), t.id2(0, 0xffffffff), t.id2(5, 6), t.id(Uint32Array.of(0, 0xffffffff), 0)]).toEqual([0, 1, 0, 1]);
  });

  it('numbers an array of two-word keys by ids2 as a Map does, through growth, after keys given by id', () => {
    const data = keys(20_000, 2, 3_000, 4242);
    const ref = referenceIds(data, 2);
    const t = new KeyTable(2);
    // the first 500 through id, the rest in two calls of ids2 (the second after the table grew)
    const ids = Array.from({ length: 500 }, (_, i) => t.id(data, 2 * i));
    const rest = new Uint32Array(19_500);
    t.ids2(data.subarray(1_000, 21_000), rest.subarray(0, 9_000));
    t.ids2(data.subarray(19_000), rest.subarray(9_000));
    expect([...ids, ...rest]).toEqual(ref.ids);
    expect([...t.keys()]).toEqual(ref.keys);
    expect(() => new KeyTable(4).ids2(Uint32Array.of(1, 2), new Uint32Array(1))).toThrow(/2 words/);
  });

  it('refuses id2 in a table whose keys are not two words', () => {
    expect(() => new KeyTable(4).id2(1, 2)).toThrow(/2 words/);
  });
});
