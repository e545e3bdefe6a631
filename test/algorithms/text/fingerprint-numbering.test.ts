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

  it('refuses a width that is not a positive integer', () => {
    expect(() => new FingerprintNumbering(0)).toThrow(/positive integer/);
  });
});
