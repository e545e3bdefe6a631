/**
 * MapDupReducer's document signature filter (Wang et al. 2010, section 2.2: "when the distance of
 * the two signatures is less than a given threshold, the pair is sent to the verifier").
 *
 * The paper's signatures come from Kołcz et al.'s I-Match generator, whose signatures can differ
 * for a qualifying pair: it would make the join inexact. The signature here is a bitmap of the
 * token set instead: bit h(w) is set for each token w. A bit set in one bitmap and not in the
 * other needs a token of that set missing from the other set, and distinct such bits need
 * distinct tokens, so the Hamming distance of the bitmaps never exceeds |x Δ y|. A pair whose
 * bitmaps differ in more than |x| + |y| − 2α bits cannot share α tokens: pruning it is exact.
 * The filter helps for sets of up to about as many tokens as the bitmap has bits; a 10⁵-token
 * set fills its bitmap, and the filter then passes every pair (costing a few word operations).
 */

/** The bit of a token, from the last 32-bit word of its fingerprint (a multiplicative hash). */
export function signatureBit(lowWord: number, bits: number): number {
  return (Math.imul(lowWord, 0x9e3779b1) >>> 0) % bits;
}

/** Sets the token's bit in the signature `sig[at .. at + bits/32)`. */
export function addToSignature(sig: Uint32Array, at: number, lowWord: number, bits: number): void {
  const bit = signatureBit(lowWord, bits);
  const w = at + (bit >>> 5);
  sig[w] = (sig[w] as number) | (1 << (bit & 31));
}

function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** Hamming distance of the signatures at `a` and `b` (word offsets) of `words` words each. */
export function signatureDistance(sigA: Uint32Array, a: number, sigB: Uint32Array, b: number, words: number): number {
  let d = 0;
  for (let k = 0; k < words; k++) d += popcount32(((sigA[a + k] as number) ^ (sigB[b + k] as number)) >>> 0);
  return d;
}

/** A signature as text for the jobs: its words as 8 hex digits each. */
export function signatureHex(sig: Uint32Array): string {
  let s = '';
  for (const w of sig) s += w.toString(16).padStart(8, '0');
  return s;
}

export function signatureFromHex(hex: string, words: number): Uint32Array {
  if (hex.length !== 8 * words) throw new Error(`signature of ${hex.length / 8} words where ${words} were expected`);
  const sig = new Uint32Array(words);
  for (let k = 0; k < words; k++) sig[k] = parseInt(hex.slice(8 * k, 8 * k + 8), 16);
  return sig;
}
