import { describe, expect, it } from 'vitest';
import { RABIN64_POLYNOMIAL, rabin64, rabin64Range, rabin64WordWindows } from '../../../algorithms/text/rabin64.ts';
import { mulberry32, randomText } from './random-text.ts';

// --- A deliberately naive second implementation: GF(2) polynomials as BigInt bit sets. ---

/** S(t): each UTF-16 unit as 16 bits, big-endian, the first bit the highest coefficient. */
function polynomialOf(s: string): bigint {
  let v = 0n;
  for (let i = 0; i < s.length; i++) v = (v << 16n) | BigInt(s.charCodeAt(i));
  return v;
}

function degree(a: bigint): number {
  return a === 0n ? -1 : a.toString(2).length - 1;
}

/** Remainder of a by p: shift/xor long division. */
function polyMod(a: bigint, p: bigint): bigint {
  const dp = degree(p);
  for (let d = degree(a); d >= dp; d--) {
    if ((a >> BigInt(d)) & 1n) a ^= p << BigInt(d - dp);
  }
  return a;
}

function polyMul(a: bigint, b: bigint): bigint {
  let r = 0n;
  while (b !== 0n) {
    if (b & 1n) r ^= a;
    a <<= 1n;
    b >>= 1n;
  }
  return r;
}

function polyGcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, polyMod(a, b)];
  return a;
}

function naiveRabin(s: string): bigint {
  return polyMod(polynomialOf(s), RABIN64_POLYNOMIAL);
}

function asBigInt(fp: Uint32Array, at = 0): bigint {
  return (BigInt(fp[at]!) << 32n) | BigInt(fp[at + 1]!);
}

/**
 * Rabin's irreducibility test for a polynomial of degree 2^k (whose only prime divisor is 2):
 * x^(2^d) ≡ x (mod p), and gcd(x^(2^(d/2)) − x, p) = 1.
 */
function isIrreducibleDegreePowerOfTwo(p: bigint): boolean {
  const d = degree(p);
  const x = 2n;
  let y = x; // x^(2^i) mod p after i squarings
  let half = 0n;
  for (let i = 1; i <= d; i++) {
    y = polyMod(polyMul(y, y), p);
    if (i === d / 2) half = y;
  }
  return y === x && polyGcd(half ^ x, p) === 1n;
}

function randomUnits(random: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(Math.floor(random() * 0x10000));
  return s;
}

describe('the Rabin polynomial P', () => {
  it('has degree 64 and the terms stated in the doc comment', () => {
    const exponents = [64, 63, 61, 60, 56, 51, 50, 49, 46, 44, 43, 41, 40, 39, 38, 37, 34, 33, 31, 30, 28, 26, 24,
      23, 22, 21, 20, 18, 17, 15, 13, 11, 5, 2, 0];
    expect(RABIN64_POLYNOMIAL).toBe(exponents.reduce((p, e) => p | (1n << BigInt(e)), 0n));
  });

  it('is irreducible (Rabin\'s test)', () => {
    expect(isIrreducibleDegreePowerOfTwo(RABIN64_POLYNOMIAL)).toBe(true);
  });

  it('is a test that rejects reducible polynomials, even those passing its first condition', () => {
    expect(isIrreducibleDegreePowerOfTwo((1n << 64n) | 0x1bn)).toBe(true); // x^64 + x^4 + x^3 + x + 1
    expect(isIrreducibleDegreePowerOfTwo((1n << 64n) | 1n)).toBe(false); // (x + 1)^64
    // the product of two irreducible degree-32 polynomials satisfies x^(2^64) ≡ x but not the gcd
    const product = polyMul((1n << 32n) | 0x8dn, 0x104c11db7n);
    expect(isIrreducibleDegreePowerOfTwo(product)).toBe(false);
  });
});

describe('rabin64', () => {
  it('is the polynomial itself when its degree is below 64 (up to 4 units)', () => {
    expect([...rabin64('')]).toEqual([0, 0]);
    expect([...rabin64('a')]).toEqual([0, 0x61]);
    expect([...rabin64('abcd')]).toEqual([0x00610062, 0x00630064]);
  });

  it('ignores leading U+0000 units (no leading 1 is prepended)', () => {
    expect([...rabin64('\0a')]).toEqual([...rabin64('a')]);
  });

  it('matches naive BigInt long division on random strings of random 16-bit units', () => {
    const random = mulberry32(11);
    for (let k = 0; k < 400; k++) {
      const s = randomUnits(random, Math.floor(random() * 80));
      expect(asBigInt(rabin64(s))).toBe(naiveRabin(s));
    }
  });

  it('fingerprints a range of a string like the sliced string', () => {
    const s = 'the quick brown fox jumps over the lazy dog';
    const out = new Uint32Array(4);
    rabin64Range(s, 4, 19, out, 2);
    expect(asBigInt(out, 2)).toBe(naiveRabin('quick brown fox'));
  });
});

// Each case runs in WebAssembly (the default up to WASM_UNITS units) and in JavaScript (above it).
describe.each([
  ['WebAssembly', {}],
  ['JavaScript', { wasmUpTo: 0 }],
] as const)('rabin64WordWindows in %s', (_engine, engine) => {
  const random = mulberry32(23);

  /** Word starts found independently: offsets after a space (or 0) that hold a non-space. */
  function startsOf(s: string): number[] {
    return [...Array(s.length).keys()].filter((i) => s[i] !== ' ' && (i === 0 || s[i - 1] === ' '));
  }

  function check(text: string, n: number): number {
    const out = new Uint32Array(2 * (startsOf(text).length + 1));
    const count = rabin64WordWindows(text, n, out, engine);
    const starts = startsOf(text).filter((start) => start + n <= text.length);
    expect(count).toBe(starts.length);
    const actual = starts.map((_, k) => asBigInt(out, 2 * k));
    expect(actual).toEqual(starts.map((start) => naiveRabin(text.slice(start, start + n))));
    return count;
  }

  for (const n of [1, 2, 5, 64, 130]) {
    it(`rolls n = ${n} windows that match naive BigInt long division of each window`, () => {
      expect(check(randomText(random, 2500), n)).toBeGreaterThan(80);
    });
  }

  it('rolls windows over random 16-bit units, removing units above U+00FF', () => {
    // a space every 1 to 3 units gives a window at nearly every offset
    let text = '';
    while (text.length < 800) text += randomUnits(random, 1 + Math.floor(random() * 3)) + ' ';
    expect(check(text, 16)).toBeGreaterThan(200);
  });

  it('starts at offset 0 only when the text starts with a word', () => {
    expect(check('ab cd ef', 2)).toBe(3);
    expect(check(' ab cd', 2)).toBe(2);
  });

  it('starts one window after a run of spaces', () => {
    expect(check('ab  cd', 2)).toBe(2);
  });

  it('leaves out windows that would run past the end', () => {
    expect(check('abcdef', 4)).toBe(1);
    expect(check('abc', 4)).toBe(0);
    expect(check('', 1)).toBe(0);
  });
});

describe('rabin64WordWindows: WebAssembly against JavaScript', () => {
  it('agrees window for window over texts of many lengths and window sizes in turn (the memory grown, the tables switched)', () => {
    const random = mulberry32(97);
    // 300 000 units need more than the first 64 KiB page many times over; 3 between two long ones
    const lengths = [40, 300_000, 3, 2500, 70_000, 64, 1];
    for (const [k, length] of lengths.entries()) {
      for (const n of [64, 5, 130, 64]) {
        const text = k % 2 === 0 ? randomText(random, length) : randomUnits(random, length);
        const room = 2 * (Math.ceil(text.length / 2) + 2);
        const a = new Uint32Array(room);
        const b = new Uint32Array(room);
        const count = rabin64WordWindows(text, n, a);
        expect(rabin64WordWindows(text, n, b, { wasmUpTo: 0 })).toBe(count);
        expect(a.subarray(0, 2 * count)).toEqual(b.subarray(0, 2 * count));
      }
    }
  });
});
