/**
 * The 64-bit simhash of weighted features (Charikar 2002; Seshasai 2009, §3.4 and Table 3.1):
 * for each bit position, add a feature's weight when its hash has a 1 there and subtract it
 * when it has a 0; the fingerprint's bit is 1 when the sum is positive, else 0 (a sum of exactly
 * 0, which the thesis does not meet, gives 0). Bit 0 is the most significant bit of `hi`.
 *
 * Features of weight 0 or less take no part; a document with none has no fingerprint.
 */

/** The 64 sums, bit 0 first, of features `0..count-1` with positive weight. */
export function bitSums(count: number, hi: Uint32Array, lo: Uint32Array, weight: Float64Array, sums: Float64Array = new Float64Array(64)): Float64Array {
  sums.fill(0);
  for (let i = 0; i < count; i++) {
    const w = weight[i] as number;
    if (!(w > 0)) continue;
    const h = hi[i] as number;
    const l = lo[i] as number;
    // (2·bit − 1)·w is exactly +w or −w: the same sums as an if/else, without the branch
    for (let j = 0; j < 32; j++) {
      sums[j] = (sums[j] as number) + (((h >>> (31 - j)) & 1) * 2 - 1) * w;
      sums[32 + j] = (sums[32 + j] as number) + (((l >>> (31 - j)) & 1) * 2 - 1) * w;
    }
  }
  return sums;
}

const scratch = new Float64Array(64);

/**
 * Writes the fingerprint to out[at] (high word) and out[at + 1]; returns false, writing nothing,
 * when no feature has a positive weight.
 */
export function simhashInto(count: number, hi: Uint32Array, lo: Uint32Array, weight: Float64Array, out: Uint32Array, at: number): boolean {
  let any = false;
  for (let i = 0; i < count && !any; i++) any = (weight[i] as number) > 0;
  if (!any) return false;
  const sums = bitSums(count, hi, lo, weight, scratch);
  let h = 0;
  let l = 0;
  for (let j = 0; j < 32; j++) {
    h = (h << 1) | ((sums[j] as number) > 0 ? 1 : 0);
    l = (l << 1) | ((sums[32 + j] as number) > 0 ? 1 : 0);
  }
  out[at] = h >>> 0;
  out[at + 1] = l >>> 0;
  return true;
}

/** Number of bits set in a 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance of two 64-bit fingerprints given as (hi, lo) words. */
export function hamming(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return popcount32((aHi ^ bHi) >>> 0) + popcount32((aLo ^ bLo) >>> 0);
}

/** The score of a pair at distance d: 1 − d/64. */
export function simhashScore(d: number): number {
  return 1 - d / 64;
}

/** A fingerprint as 16 lower-case hex digits. */
export function fingerprintToHex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/** The (hi, lo) words of 16 hex digits; throws on anything else (a corrupt signature record). */
export function fingerprintFromHex(hex: string): [number, number] {
  if (!/^[0-9a-f]{16}$/.test(hex)) throw new Error(`not a 64-bit fingerprint in 16 hex digits: ${JSON.stringify(hex.slice(0, 40))}`);
  return [parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8), 16)];
}
