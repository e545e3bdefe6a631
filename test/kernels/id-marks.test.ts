import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdMarks } from '../../kernels/id-marks.ts';

describe('IdMarks', () => {
  it('holds the ids of the current set with their places, as a Map does, set after set', () => {
    const marks = new IdMarks(1 << 12);
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 50 }), { maxLength: 8 }), (sets) => {
        for (const ids of sets) {
          expect(marks.start(3001)).toBe(true);
          const map = new Map<number, number>();
          ids.forEach((id, i) => {
            marks.add(id, i);
            map.set(id, i);
          });
          for (let id = 0; id <= 3000; id += 7) expect(marks.has(id)).toBe(map.has(id));
          for (const [id, place] of map) expect([marks.has(id), marks.placeOf(id)]).toEqual([true, place]);
        }
      }),
    );
  });

  it('says when ids do not fit under its cap', () => {
    const marks = new IdMarks(100);
    expect(marks.start(101)).toBe(false);
    expect(marks.start(100)).toBe(true);
  });
});
