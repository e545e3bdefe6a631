import { describe, expect, it } from 'vitest';
import { FingerprintNumbering } from '../../../algorithms/text/fingerprint-numbering.ts';
import { Fingerprint64Numbering } from '../../../algorithms/text/numbering64-wasm.ts';
import { keys, referenceIds } from './keys-reference.ts';

/** A document's distinct ids written out: first-seen order, where each first lies, each occurrence's place. */
function referenceDistinct(ids: readonly number[]): { distinct: number[]; first: number[]; rank: number[] } {
  const place = new Map<number, number>();
  const distinct: number[] = [];
  const first: number[] = [];
  const rank = ids.map((id, k) => {
    if (!place.has(id)) {
      place.set(id, distinct.length);
      distinct.push(id);
      first.push(k);
    }
    return place.get(id) as number;
  });
  return { distinct, first, rank };
}

/** `data` cut into calls of these many keys, in turn. */
function cut(data: Uint32Array, sizes: readonly number[]): Uint32Array[] {
  const parts: Uint32Array[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = Math.min(sizes[i % sizes.length] as number, (data.length - at) / 2);
    parts.push(data.slice(at, at + 2 * n));
    at += 2 * n;
  }
  return parts;
}

describe('Fingerprint64Numbering', () => {
  it('numbers two-word keys in first-seen order as a Map does, across calls, through growth from 16 keys', () => {
    const data = keys(30_000, 2, 5_000, 4242);
    const ref = referenceIds(data, 2);
    const t = new Fingerprint64Numbering(1);
    const ids = cut(data, [1, 700, 13, 9_000, 0, 250]).flatMap((part) => [...t.number(part, part.length / 2).ids]);
    expect(ids).toEqual(ref.ids);
    expect(t.size).toBe(ref.keys.length / 2);
    expect([...t.keys()]).toEqual(ref.keys);
  });

  it('gives the ids the JavaScript table gives the same keys', () => {
    const data = keys(8_000, 2, 2_000, 77);
    const js = new FingerprintNumbering(2);
    const t = new Fingerprint64Numbering();
    expect([...t.number(data, 8_000).ids]).toEqual(Array.from({ length: 8_000 }, (_, k) => js.id(data, 2 * k)));
  });

  it("gives each call's distinct ids, their first occurrences and every occurrence's place, as written out", () => {
    const data = keys(20_000, 2, 900, 99);
    const t = new Fingerprint64Numbering(8);
    // the same keys again in later calls: a key's mark from an earlier call must not count
    for (const part of cut(data, [3_000, 1, 40, 6_000])) {
      const made = t.number(part, part.length / 2);
      const ref = referenceDistinct([...made.ids]);
      expect([...made.distinct.distinct]).toEqual(ref.distinct);
      expect([...made.distinct.first]).toEqual(ref.first);
      expect([...made.distinct.rank]).toEqual(ref.rank);
    }
  });

  it('tells apart keys that differ in one word only, and writes each in hex', () => {
    const t = new Fingerprint64Numbering();
    const made = t.number(Uint32Array.of(0, 0, 0, 1, 1, 0, 0xffffffff, 0, 0, 0xffffffff, 0, 0), 6);
    expect([...made.ids]).toEqual([0, 1, 2, 3, 4, 0]);
    expect([...made.distinct.distinct]).toEqual([0, 1, 2, 3, 4]);
    expect([0, 1, 2, 3, 4].map((id) => t.hexOf(id))).toEqual(['0000000000000000', '0000000000000001', '0000000100000000', 'ffffffff00000000', '00000000ffffffff']);
  });

  it('numbers an empty document, and refuses more keys than the words hold', () => {
    const t = new Fingerprint64Numbering();
    const made = t.number(new Uint32Array(0), 0);
    expect([made.ids.length, made.distinct.distinct.length, t.size]).toEqual([0, 0, 0]);
    expect(() => t.number(Uint32Array.of(1, 2, 3), 2)).toThrow(/2 keys asked of 3 words/);
  });
});
