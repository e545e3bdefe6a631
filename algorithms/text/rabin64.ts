/**
 * Rabin's 64-bit fingerprint (Rabin 1981; Broder 1993), as the thesis uses for shingles:
 * f(s) = S(t) mod P(t) over GF(2), where S(t) has as coefficients the bits of `s` taken as
 * UTF-16 code units, each unit 16 bits big-endian, the first bit the highest coefficient.
 * No leading 1 is prepended, so units of value 0 at the start do not change f; normalized
 * text never starts with U+0000, so this costs nothing here.
 *
 * P = 0x1_b10e5be6_d5f6a825, that is
 *   x^64 + x^63 + x^61 + x^60 + x^56 + x^51 + x^50 + x^49 + x^46 + x^44 + x^43 + x^41 + x^40
 *   + x^39 + x^38 + x^37 + x^34 + x^33 + x^31 + x^30 + x^28 + x^26 + x^24 + x^23 + x^22 + x^21
 *   + x^20 + x^18 + x^17 + x^15 + x^13 + x^11 + x^5 + x^2 + 1.
 * Rabin's collision bound holds for a P drawn at random among the irreducible polynomials, so P
 * is "random" by a reproducible recipe rather than a sparse textbook one: its low 64 bits start
 * from the first 8 bytes of SHA-256("ndd-bench rabin64") = 0xb10e5be6d5f6a802 with the constant
 * term set, stepping by 2 until the result is irreducible (the 18th candidate). It is
 * irreducible by Rabin's test: x^(2^64) ≡ x (mod P), and gcd(x^(2^32) − x, P) = 1, 2 being the
 * only prime dividing 64 (checked with BigInt arithmetic in test/algorithms/text/rabin64.test.ts).
 *
 * Speed: the 64-bit remainder lives in two int32 halves (no BigInt); a step appends one
 * 16-bit unit with four lookups in byte tables of (byte · t^k mod P), and the windows of n
 * units roll: f(next window) = f(window)·t^16 + u_in − u_out·t^(16n), all mod P, so each
 * window costs O(1) however long n is. Word starts are found in the same pass.
 */

import { rollWordWindowsWasm, WASM_UNITS, type RollTables } from './rabin64-wasm.ts';

/** P, for tests and documentation; the hot paths use the two halves below. */
export const RABIN64_POLYNOMIAL = 0x1b10e5be6d5f6a825n;
const P_HI = 0xb10e5be6 | 0;
const P_LO = 0xd5f6a825 | 0;
const SPACE = 0x20;

/**
 * Lookup tables for multiplying a 16-bit unit by a fixed polynomial M modulo P, interleaved
 * for locality: for each byte value b, [4b] and [4b + 1] hold the hi/lo halves of
 * (b · t^8 · M) mod P (b the unit's high byte), [4b + 2] and [4b + 3] those of (b · M) mod P
 * (b the low byte).
 */
function unitTables(mHi: number, mLo: number): Int32Array {
  // powers M · t^j mod P for j = 0..15, by repeated multiplication by t
  const powersHi = new Int32Array(16);
  const powersLo = new Int32Array(16);
  let hi = mHi | 0;
  let lo = mLo | 0;
  for (let j = 0; j < 16; j++) {
    powersHi[j] = hi;
    powersLo[j] = lo;
    [hi, lo] = timesT(hi, lo);
  }
  const table = new Int32Array(1024);
  for (let b = 0; b < 256; b++) {
    let highHi = 0;
    let highLo = 0;
    let lowHi = 0;
    let lowLo = 0;
    for (let j = 0; j < 8; j++) {
      if ((b >>> j) & 1) {
        highHi ^= powersHi[j + 8]!;
        highLo ^= powersLo[j + 8]!;
        lowHi ^= powersHi[j]!;
        lowLo ^= powersLo[j]!;
      }
    }
    table.set([highHi, highLo, lowHi, lowLo], 4 * b);
  }
  return table;
}

/** (hi:lo) · t mod P. */
function timesT(hi: number, lo: number): [number, number] {
  const carry = hi < 0; // the coefficient of t^63, about to become t^64 ≡ P − t^64
  hi = (hi << 1) | (lo >>> 31);
  lo = lo << 1;
  return carry ? [hi ^ P_HI, lo ^ P_LO] : [hi, lo];
}

/** t^64 mod P is P without its leading term: 16 bits shifted out of the top multiply it. */
const SHIFT = unitTables(P_HI, P_LO);

/** Tables removing the unit that leaves a window of n units: multiplication by t^(16n) mod P. */
const outgoingCache = new Map<number, Int32Array>();

function outgoingTables(n: number): Int32Array {
  let tables = outgoingCache.get(n);
  if (tables === undefined) {
    let hi = 0;
    let lo = 1;
    for (let k = 0; k < 16 * n; k++) [hi, lo] = timesT(hi, lo);
    tables = unitTables(hi, lo);
    outgoingCache.set(n, tables);
  }
  return tables;
}

/** Writes f(s[start..end)) to out[at] (high 32 bits) and out[at + 1] (low 32 bits). */
export function rabin64Range(s: string, start: number, end: number, out: Uint32Array, at: number): void {
  const T = SHIFT;
  let hi = 0;
  let lo = 0;
  for (let i = start; i < end; i++) {
    const top = hi >>> 16;
    const a = (top >>> 8) << 2;
    const b = (top & 0xff) << 2;
    hi = ((hi << 16) | (lo >>> 16)) ^ T[a]! ^ T[b + 2]!;
    lo = ((lo << 16) | s.charCodeAt(i)) ^ T[a + 1]! ^ T[b + 3]!;
  }
  out[at] = hi;
  out[at + 1] = lo;
}

/** f(s) as [high 32 bits, low 32 bits]. */
export function rabin64(s: string): Uint32Array {
  const out = new Uint32Array(2);
  rabin64Range(s, 0, s.length, out, 0);
  return out;
}

/**
 * Fingerprints of the n-unit windows of `s` that start at a word start (a non-space at 0 or
 * after a space, as `wordStarts`), in text order, written as hi/lo pairs into `out` from
 * index 0; windows that would run past the end are left out. One rolling pass computes every
 * window and keeps those at word starts. `out` needs room for 2 · (word starts + 1) words (the
 * pass writes one slot past the last kept window). Returns how many fingerprints it kept.
 */
export function rabin64WordWindows(s: string, n: number, out: Uint32Array, o: { readonly wasmUpTo?: number } = {}): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`rabin64WordWindows: window length must be a positive integer, got ${n}`);
  if (s.length < n) return 0;
  // In WebAssembly up to WASM_UNITS units (rabin64-wasm.ts says why); `wasmUpTo` lets the tests run either.
  return s.length <= (o.wasmUpTo ?? WASM_UNITS) ? rollWordWindowsWasm(s, rabin64Tables(n), out) : rollWordWindows(s, n, outgoingTables(n), out);
}

/** The tables of the pass over windows of n units (rabin64-wasm.ts takes them). */
export function rabin64Tables(n: number): RollTables {
  return { shift: SHIFT, gone: outgoingTables(n), n };
}

/**
 * rabin64WordWindows' pass, given the tables of the unit leaving a window (`gone`) and `s` at
 * least n long: only the loop, so that V8 compiles the loop alone (an explanation's documents
 * run it while it is cold, and its compilation was the error step's largest).
 */
function rollWordWindows(s: string, n: number, gone: Int32Array, out: Uint32Array): number {
  const len = s.length;
  const T = SHIFT;
  // the first window, s[0..n): nothing leaves it yet
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < n; i++) {
    const top = hi >>> 16;
    const a = (top >>> 8) << 2;
    const b = (top & 0xff) << 2;
    hi = ((hi << 16) | (lo >>> 16)) ^ T[a]! ^ T[b + 2]!;
    lo = ((lo << 16) | s.charCodeAt(i)) ^ T[a + 1]! ^ T[b + 3]!;
  }
  out[0] = hi;
  out[1] = lo;
  let count = s.charCodeAt(0) === SPACE ? 0 : 1;
  // then every later window s[i − n + 1..i]: shift in s[i], remove s[i − n]; keep the window
  // when it starts a word. The keep is branch-free (always store, advance count by 0 or 1):
  // word starts come every few units, too irregularly for the branch predictor.
  let previous = s.charCodeAt(0);
  for (let i = n; i < len; i++) {
    const top = hi >>> 16;
    const a = (top >>> 8) << 2;
    const b = (top & 0xff) << 2;
    hi = ((hi << 16) | (lo >>> 16)) ^ T[a]! ^ T[b + 2]!;
    lo = ((lo << 16) | s.charCodeAt(i)) ^ T[a + 1]! ^ T[b + 3]!;
    const unit = previous;
    // Both bytes of the leaving unit, always: the high byte of ASCII is 0, whose entry is 0. A
    // branch on it ran only at a run's first text that is not ASCII, and V8, which had compiled
    // the loop without it, threw the code away there and compiled it again (docs/performance.md).
    const low = (unit & 0xff) << 2;
    const high = (unit >>> 8) << 2;
    hi ^= gone[low + 2]! ^ gone[high]!;
    lo ^= gone[low + 3]! ^ gone[high + 1]!;
    previous = s.charCodeAt(i - n + 1);
    out[2 * count] = hi;
    out[2 * count + 1] = lo;
    // 1 when the unit that left was a space and the window now starts with a non-space
    count += (((unit ^ SPACE) - 1) >>> 31) & ((((previous ^ SPACE) - 1) >>> 31) ^ 1);
  }
  return count;
}
