/** Figures for people: the thousands grouping equals ICU's en-US formatting it replaces. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grouped, sig3 } from '../../harness/format.ts';

describe('grouped', () => {
  it('writes integers as toLocaleString("en-US") does', () => {
    fc.assert(fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1e7, max: 1e7 })), (n) => grouped(n) === n.toLocaleString('en-US')));
    for (const n of [0, 7, 999, 1000, 28744, 100000, 1234567, -1000, Number.MAX_SAFE_INTEGER]) expect(grouped(n)).toBe(n.toLocaleString('en-US'));
  });

  it('by hand: 6,025 documents, 1,790,358 fingerprints', () => {
    expect(grouped(6025)).toBe('6,025');
    expect(grouped(1790358)).toBe('1,790,358');
    expect(grouped(-12)).toBe('-12');
  });

  it('leaves what is not a safe integer to toLocaleString', () => {
    for (const x of [1234.5678, -0, 2 ** 60, Number.NaN]) expect(grouped(x)).toBe(x.toLocaleString('en-US'));
  });

  it('is what sig3 writes for four digits and more', () => {
    expect(sig3(28743.6)).toBe('28,744');
  });
});
