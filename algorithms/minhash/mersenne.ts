/**
 * Exact arithmetic modulo the Mersenne prime p = 2^61 − 1, for universal hashing
 * h(x) = (a·x + b) mod p (Carter and Wegman; the family datasketch's MinHash uses).
 *
 * JavaScript numbers are doubles: a·x with a and x near 2^61 is a 122-bit product, and
 * computing `(a * x + b) % p` in doubles keeps only its top 53 bits, so every hash value
 * beyond 2^53 comes out wrong (the common npm MinHash packages do exactly that). BigInt is
 * exact but allocates on every operation. Here a residue is two uint32 halves, hi (29 bits)
 * and lo (32 bits), and a product of two halves is split exactly into its own halves: the low
 * 32 bits by `Math.imul`, the high bits by rounding (u·v − low) / 2^32, where the double u·v
 * is within 2^12 of the true product and so cannot cross a multiple of 2^32 that far away.
 * The 2^61 ≡ 1 (mod p) identity then folds the 122-bit product back below 2^62 with shifts.
 *
 * Functions return the residue as a double only where it is exact (tests, small values);
 * the hot paths write the two halves into a caller's array.
 */

/** p = 2^61 − 1: its high half (29 bits) and low half (32 bits). */
export const P_HI = 0x1fffffff;
export const P_LO = 0xffffffff;
export const MERSENNE_61 = (1n << 61n) - 1n;

const TWO_32 = 4294967296;
const TWO_29 = 536870912;
const MASK_29 = 0x1fffffff;

/**
 * (a·x + b) mod p for residues a, x, b < p given as halves; writes the result's high half to
 * out[at] and its low half to out[at + 1]. Every intermediate stays an integer below 2^53.
 */
export function mulAddMod(aHi: number, aLo: number, xHi: number, xLo: number, bHi: number, bLo: number, out: Uint32Array, at: number): void {
  // The four partial products, each as (high, low) 32-bit halves.
  const l00 = Math.imul(aLo, xLo) >>> 0;
  const h00 = Math.round((aLo * xLo - l00) / TWO_32);
  const l01 = Math.imul(aLo, xHi) >>> 0;
  const h01 = Math.round((aLo * xHi - l01) / TWO_32);
  const l10 = Math.imul(aHi, xLo) >>> 0;
  const h10 = Math.round((aHi * xLo - l10) / TWO_32);
  const l11 = Math.imul(aHi, xHi) >>> 0;
  const h11 = Math.round((aHi * xHi - l11) / TWO_32);
  // a·x = a_hi·x_hi·2^64 + m·2^32 + a_lo·x_lo with m = a_hi·x_lo + a_lo·x_hi < 2^62.
  let mLo = l01 + l10;
  let mHi = h01 + h10;
  if (mLo >= TWO_32) {
    mLo -= TWO_32;
    mHi += 1;
  }
  // 2^64 ≡ 8 and m·2^32 ≡ (m >> 29) + (m mod 2^29)·2^32 (mod p): everything is now a
  // coefficient of 2^32 (hi) or of 1 (lo), each sum below 2^35.
  const hi = (mLo & MASK_29) + h00 + h11 * 8 + (l11 >>> 29) + bHi;
  const lo = l00 + ((l11 << 3) >>> 0) + mHi * 8 + (mLo >>> 29) + bLo;
  // hi·2^32 + lo < 2^67
  foldInto(hi, lo, out, at);
}

/**
 * A 64-bit value (two uint32 halves, most significant first) reduced mod p, as halves:
 * x = (x >> 61)·2^61 + (x mod 2^61) ≡ (x >> 61) + (x mod 2^61).
 */
export function reduce64(hi: number, lo: number, out: Uint32Array, at: number): void {
  let h = (hi & MASK_29) >>> 0;
  let l = (lo >>> 0) + (hi >>> 29);
  if (l >= TWO_32) {
    // the carry can make the value 2^61 + l (l < 8) ≡ l + 1
    l -= TWO_32;
    h += 1;
    if (h > P_HI) {
      h = 0;
      l += 1;
    }
  }
  if (h === P_HI && l === P_LO) {
    h = 0;
    l = 0;
  }
  out[at] = h;
  out[at + 1] = l;
}

/**
 * A fingerprint of `width` uint32 words (most significant first: 2 for Rabin 64, 4 for MD5)
 * reduced mod p, as halves. A 128-bit value is folded 61 bits at a time (2^61 ≡ 1).
 */
export function reduceWords(words: Uint32Array, base: number, width: number, out: Uint32Array, at: number): void {
  if (width === 2) {
    reduce64(words[base] as number, words[base + 1] as number, out, at);
    return;
  }
  // 128 bits w0..w3: x = c2·2^122 + c1·2^61 + c0 with c0 = bits 0..60, c1 = bits 61..121,
  // c2 = bits 122..127; x ≡ c0 + c1 + c2.
  const w0 = words[base] as number;
  const w1 = words[base + 1] as number;
  const w2 = words[base + 2] as number;
  const w3 = words[base + 3] as number;
  const c0Hi = w2 & MASK_29;
  const c0Lo = w3;
  // bits 61..121: (w2 >>> 29) | w1 << 3 | w0 << 35, 61 bits
  const c1Lo = ((w2 >>> 29) | (w1 << 3)) >>> 0;
  const c1Hi = ((w1 >>> 29) | (w0 << 3)) & MASK_29;
  const c2 = w0 >>> 26;
  const hi = c0Hi + c1Hi;
  const lo = c0Lo + c1Lo + c2;
  // hi < 2^30 + 1
  foldInto(hi, lo, out, at);
}

/** A residue's halves as a BigInt, for tests and set-up code. */
export function toBigInt(hi: number, lo: number): bigint {
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Halves of a BigInt in [0, 2^61). */
export function fromBigInt(x: bigint): [number, number] {
  return [Number(x >> 32n), Number(x & 0xffffffffn)];
}

/**
 * Writes the residue mod p of hi·2^32 + lo (< 2^67; hi and lo non-negative integers below 2^53)
 * as halves to out[at], out[at + 1]: carry lo's bits above 32 into hi, fold the bits above 2^61
 * once (2^61 ≡ 1), then subtract p at most once.
 */
function foldInto(hi: number, lo: number, out: Uint32Array, at: number): void {
  const carry = Math.floor(lo / TWO_32);
  lo -= carry * TWO_32;
  hi += carry;
  const over = Math.floor(hi / TWO_29);
  hi -= over * TWO_29;
  lo += over;
  if (lo >= TWO_32) {
    lo -= TWO_32;
    hi += 1;
  }
  if (hi > P_HI || (hi === P_HI && lo === P_LO)) {
    // value − p = value − 2^61 + 1
    hi -= TWO_29;
    lo += 1;
    if (lo >= TWO_32) {
      lo -= TWO_32;
      hi += 1;
    }
  }
  out[at] = hi;
  out[at + 1] = lo;
}
