/** Distinct fingerprints and set intersections against Sets of hex strings. */
import { describe, expect, it } from 'vitest';
import { distinctFingerprints, intersectionSize } from '../../../algorithms/text/distinct.ts';
import { fingerprintHex, type Fingerprints } from '../../../algorithms/text/fingerprint.ts';
import { mulberry32 } from './random-text.ts';

/** `count` fingerprints drawn with repetition from a pool of `alphabet` (the pool depends on `poolSeed` only). */
function randomFingerprints(width: 2 | 4, count: number, alphabet: number, seed: number, poolSeed = 1): Fingerprints {
  const poolRandom = mulberry32(poolSeed);
  const pool = Array.from({ length: alphabet }, () => Array.from({ length: width }, () => Math.floor(poolRandom() * 2 ** 32)));
  const random = mulberry32(seed);
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

describe('intersectionSize', () => {
  it.each([2, 4] as const)('counts the fingerprints two width-%i sets share, as Sets of hex strings do', (width) => {
    for (const [na, nb, alphabet] of [[300, 500, 600], [1, 40, 30], [0, 10, 5], [2000, 2000, 2500]] as const) {
      const a = distinctFingerprints(randomFingerprints(width, na, alphabet, na + 1));
      const b = distinctFingerprints(randomFingerprints(width, nb, alphabet, nb + 2));
      const B = new Set(hexes(b));
      const expected = hexes(a).filter((h) => B.has(h)).length;
      if (na >= 300) expect(expected).toBeGreaterThan(0);
      expect(intersectionSize(a.data, a.count, b.data, b.count, width)).toBe(expected);
      expect(intersectionSize(b.data, b.count, a.data, a.count, width)).toBe(expected);
    }
  });
});
