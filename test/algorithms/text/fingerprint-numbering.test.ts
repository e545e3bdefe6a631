import { describe, expect, it } from 'vitest';
import { FingerprintNumbering } from '../../../algorithms/text/fingerprint-numbering.ts';
import { keys, referenceIds } from './keys-reference.ts';

describe('FingerprintNumbering', () => {
  it.each([1, 2, 5])('numbers distinct keys of width %i in first-seen order, as a Map does, through growth', (width) => {
    const data = keys(20_000, width, 3_000, 999 + width);
    const table = new FingerprintNumbering(width);
    const ids = Array.from({ length: 20_000 }, (_, i) => table.id(data, i * width));
    const ref = referenceIds(data, width);
    expect(ids).toEqual(ref.ids);
    expect(table.size).toBe(ref.keys.length / width);
    expect([...table.keys()]).toEqual(ref.keys);
  });

  it('numbers arrays of two-word keys by ids2 as a Map does, mixed with id, through growth', () => {
    const data = keys(20_000, 2, 3_000, 4242);
    const ref = referenceIds(data, 2);
    // from 16 slots: the table grows and rehashes many times between and inside the calls
    const t = new FingerprintNumbering(2, 8);
    const ids = Array.from({ length: 500 }, (_, i) => t.id(data, 2 * i));
    const rest = new Uint32Array(19_500);
    t.ids2(data.subarray(1_000, 21_000), rest.subarray(0, 9_000));
    t.ids2(data.subarray(19_000), rest.subarray(9_000));
    expect([...ids, ...rest]).toEqual(ref.ids);
    expect([...t.keys()]).toEqual(ref.keys);
  });

  it('tells apart keys that differ in one word only', () => {
    const t = new FingerprintNumbering(2);
    const out = new Uint32Array(6);
    t.ids2(Uint32Array.of(0, 0, 0, 1, 1, 0, 0xffffffff, 0, 0, 0xffffffff, 0, 0), out);
    expect([...out]).toEqual([0, 1, 2, 3, 4, 0]);
  });

  it('refuses ids2 in a table whose keys are not two words, and a width that is not a positive integer', () => {
    expect(() => new FingerprintNumbering(4).ids2(Uint32Array.of(1, 2), new Uint32Array(1))).toThrow(/2 words/);
    expect(() => new FingerprintNumbering(0)).toThrow(/positive integer/);
  });
});
