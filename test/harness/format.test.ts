/** Figures for people: the thousands grouping equals ICU's en-US formatting it replaces. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grouped, human, sig3, usd } from '../../harness/format.ts';

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

describe('usd', () => {
  it('writes dollars and cents, and a fraction of a cent as "under $0.01"', () => {
    expect([usd(0), usd(6.5e-5), usd(0.0049), usd(0.005), usd(0.01), usd(1.234), usd(1234.5), usd(-2.5)]).toEqual([
      '$0.00',
      'under $0.01',
      'under $0.01',
      '$0.01',
      '$0.01',
      '$1.23',
      '$1,234.50',
      '-$2.50',
    ]);
  });
});

describe('human', () => {
  it('writes three significant figures in fixed notation, integers grouped', () => {
    const cases: [number, string][] = [
      [0.018804297262392185, '0.0188'],
      [0.9921612147555022, '0.992'],
      [1.5, '1.50'],
      [15.04, '15.0'],
      [123.456, '123'],
      [28743.6, '28,744'],
      [28744, '28,744'],
      [0, '0'],
      [1.313e-5, '0.0000131'],
      [-0.5, '-0.500'],
    ];
    for (const [x, shown] of cases) expect(human(x), String(x)).toBe(shown);
  });

  it('never writes an exponent and keeps three figures for any magnitude below 1000', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-12, max: 999.4, noNaN: true }), (x) => {
        const shown = human(x);
        return !/e/i.test(shown) && Math.abs(Number(shown) - x) <= 0.5 * 10 ** (Math.floor(Math.log10(x)) - 2) * 1.0000001;
      }),
    );
  });
});
