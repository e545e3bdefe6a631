import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../../algorithms/text/key-table.ts';
import { keys, referenceIds } from './keys-reference.ts';

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
});
