import { describe, expect, it } from 'vitest';
import { PairBuffer } from '../../../algorithms/text/pair-buffer.ts';

describe('PairBuffer', () => {
  it('keeps every pair pushed, in order, across growths from a capacity of 1', () => {
    const buf = new PairBuffer(1);
    const want = { a: [] as number[], b: [] as number[], s: [] as number[] };
    for (let i = 0; i < 5000; i++) {
      buf.push(i, i + 7, i / 5000);
      want.a.push(i);
      want.b.push(i + 7);
      want.s.push(i / 5000);
    }
    const r = buf.result();
    expect(buf.size).toBe(5000);
    expect([...r.a]).toEqual(want.a);
    expect([...r.b]).toEqual(want.b);
    expect([...r.score]).toEqual(want.s);
  });

  it('gives empty arrays when nothing was pushed', () => {
    const r = new PairBuffer().result();
    expect([r.a.length, r.b.length, r.score.length]).toEqual([0, 0, 0]);
  });
});
