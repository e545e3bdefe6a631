/** Distinct and sorted fingerprints against a Set of hex strings and a BigInt sort. */
import { describe, expect, it } from 'vitest';
import { distinctFingerprints, sortedFingerprints } from '../../../algorithms/text/distinct.ts';
import { fingerprintHex, type Fingerprints } from '../../../algorithms/text/fingerprint.ts';
import { mulberry32 } from './random-text.ts';

function randomFingerprints(width: 2 | 4, count: number, alphabet: number, seed: number): Fingerprints {
  const random = mulberry32(seed);
  const pool = Array.from({ length: alphabet }, () => Array.from({ length: width }, () => Math.floor(random() * 2 ** 32)));
  const data = new Uint32Array(width * count);
  for (let i = 0; i < count; i++) data.set(pool[Math.floor(random() * alphabet)] as number[], i * width);
  return { width, data, count };
}

const hexes = (f: Fingerprints): string[] => Array.from({ length: f.count }, (_, i) => fingerprintHex(f.data, i, f.width));

describe('distinctFingerprints', () => {
  it.each([
    [2, 1000, 50],
    [2, 5000, 4000],
    [4, 800, 30],
    [2, 1, 1],
    [2, 0, 1],
  ] as const)('keeps each of width %i × %i fingerprints once, in order of first occurrence (alphabet %i)', (width, count, alphabet) => {
    const f = randomFingerprints(width, count, alphabet, count + width);
    expect(hexes(distinctFingerprints(f))).toEqual([...new Set(hexes(f))]);
  });
});

describe('sortedFingerprints', () => {
  it.each([2, 4] as const)('sorts width-%i fingerprints as unsigned integers', (width) => {
    const f = distinctFingerprints(randomFingerprints(width, 3000, 2500, 9));
    const big = (h: string): bigint => BigInt(`0x${h}`);
    const expected = hexes(f).sort((x, y) => (big(x) < big(y) ? -1 : big(x) > big(y) ? 1 : 0));
    expect(hexes(sortedFingerprints(f))).toEqual(expected);
  });
});
