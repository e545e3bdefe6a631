import { describe, expect, it } from 'vitest';
import {
  fingerprintHex,
  fingerprintMod,
  fingerprintOf,
  type Fingerprints,
  shingleFingerprints,
} from '../../../algorithms/text/fingerprint.ts';
import type { FingerprintKind, ShingleSpec } from '../../../algorithms/text/params.ts';
import { charShingles, wordShingles } from '../../../algorithms/text/shingles.ts';
import { mulberry32, randomWords } from './random-text.ts';

/** The reference: shingle strings, each fingerprinted on its own. */
function referenceFingerprints(text: string, spec: ShingleSpec, kind: FingerprintKind): number[][] {
  const shingles = spec.unit === 'char' ? charShingles(text, spec.size) : wordShingles(text, spec.size);
  return shingles.map((s) => [...fingerprintOf(s, kind)]);
}

function unpack(fps: Fingerprints): number[][] {
  const result: number[][] = [];
  for (let k = 0; k < fps.count; k++) result.push([...fps.data.subarray(k * fps.width, (k + 1) * fps.width)]);
  return result;
}

const specs: ShingleSpec[] = [
  { unit: 'char', size: 1, start: 'word' },
  { unit: 'char', size: 8, start: 'word' },
  { unit: 'char', size: 64, start: 'word' },
  { unit: 'word', size: 1 },
  { unit: 'word', size: 4 },
];

describe('shingleFingerprints', () => {
  for (const kind of ['rabin64', 'md5'] as const) {
    for (const spec of specs) {
      it(`gives the ${kind} fingerprints of the reference ${spec.unit} shingles of size ${spec.size}`, () => {
        const random = mulberry32(spec.size * 31 + (kind === 'md5' ? 1 : 0));
        // from empty and shorter-than-a-shingle texts up to texts of many shingles
        for (const wordCount of [0, 1, 2, 3, 5, 8, 13, 40, 120]) {
          const text = randomWords(random, wordCount);
          const fps = shingleFingerprints(text, spec, kind);
          expect(fps.width).toBe(kind === 'rabin64' ? 2 : 4);
          expect(fps.data.length).toBe(fps.width * fps.count);
          expect(unpack(fps)).toEqual(referenceFingerprints(text, spec, kind));
        }
      });
    }
  }

  it('gives one fingerprint, of the whole text, for a text shorter than n', () => {
    const fps = shingleFingerprints('ab cd', { unit: 'char', size: 64, start: 'word' }, 'rabin64');
    expect(fps.count).toBe(1);
    expect([...fps.data]).toEqual([...fingerprintOf('ab cd', 'rabin64')]);
  });

  it('gives no fingerprint for ""', () => {
    expect(shingleFingerprints('', { unit: 'char', size: 64, start: 'word' }, 'md5').count).toBe(0);
    expect(shingleFingerprints('', { unit: 'word', size: 3 }, 'rabin64').count).toBe(0);
  });

  it('keeps duplicate shingles', () => {
    const fps = shingleFingerprints('aa aa aa', { unit: 'char', size: 2, start: 'word' }, 'rabin64');
    expect(unpack(fps)).toEqual([[0, 0x00610061], [0, 0x00610061], [0, 0x00610061]]);
  });
});

describe('fingerprintOf', () => {
  it('gives the MD5 of the shingle for md5', () => {
    expect(fingerprintHex(fingerprintOf('abc', 'md5'), 0, 4)).toBe('900150983cd24fb0d6963f7d28e17f72');
  });
});

describe('fingerprintHex', () => {
  it('pads every word to 8 lowercase hex digits, most significant first', () => {
    const data = Uint32Array.of(0xdeadbeef, 0x1, 0xabcdef12, 0);
    expect(fingerprintHex(data, 0, 2)).toBe('deadbeef00000001');
    expect(fingerprintHex(data, 1, 2)).toBe('abcdef1200000000');
    expect(fingerprintHex(data, 0, 4)).toBe('deadbeef00000001abcdef1200000000');
  });

  it('rejects an index past the end', () => {
    expect(() => fingerprintHex(new Uint32Array(4), 2, 2)).toThrow(RangeError);
  });
});

describe('fingerprintMod', () => {
  function bigValue(data: Uint32Array, index: number, width: number): bigint {
    let v = 0n;
    for (let k = 0; k < width; k++) v = v * 4294967296n + BigInt(data[index * width + k]!);
    return v;
  }

  it('equals BigInt mod for random fingerprints and moduli up to 2^21', () => {
    const random = mulberry32(99);
    const moduli = [1, 2, 3, 64, 100, 1000, 65_537, 2 ** 20 + 7, 2 ** 21 - 1, 2 ** 21];
    for (let k = 0; k < 200; k++) moduli.push(1 + Math.floor(random() * 2 ** 21));
    for (const width of [2, 4] as const) {
      const data = Uint32Array.from({ length: width * 50 }, () => Math.floor(random() * 2 ** 32));
      data.fill(0xffffffff, 0, width); // the largest value, 2^64 − 1 or 2^128 − 1
      const actual: number[] = [];
      const expected: number[] = [];
      for (const m of moduli) {
        for (let index = 0; index < 50; index++) {
          actual.push(fingerprintMod(data, index, width, m));
          expected.push(Number(bigValue(data, index, width) % BigInt(m)));
        }
      }
      expect(actual).toEqual(expected);
    }
  });

  it('reads a Fingerprints object like its data array', () => {
    const fps = shingleFingerprints('the quick brown fox', { unit: 'word', size: 2 }, 'md5');
    for (let index = 0; index < fps.count; index++) {
      expect(fingerprintMod(fps, index, 4, 1000)).toBe(Number(bigValue(fps.data, index, 4) % 1000n));
    }
  });

  it('rejects moduli outside [1, 2^21] and a width that does not match', () => {
    const data = new Uint32Array(2);
    expect(() => fingerprintMod(data, 0, 2, 0)).toThrow(RangeError);
    expect(() => fingerprintMod(data, 0, 2, 2 ** 21 + 1)).toThrow(RangeError);
    expect(() => fingerprintMod(data, 0, 2, 1.5)).toThrow(RangeError);
    expect(() => fingerprintMod({ width: 2, data, count: 1 }, 0, 4, 64)).toThrow(RangeError);
  });
});
