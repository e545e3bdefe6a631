/**
 * The feature hash (thesis §3.2): Jenkins' lookup3 `hashlittle2` of the feature's text, 64 bits
 * (c high, b low), seeded from the experiment's seed so that the whole fingerprint family, like
 * Charikar's random hyperplanes, is a choice the seed fixes. Two features share a hash only
 * by a 64-bit collision; document frequencies and term frequencies are therefore kept by hash.
 */
import { lookup3Utf16 } from '../text/lookup3.ts';

export interface HashSeeds {
  readonly pc: number;
  readonly pb: number;
}

const TWO_POW_32 = 4294967296;

/** lookup3's two seeds from the experiment's seed: its low and high 32-bit words. */
export function hashSeeds(seed: number): HashSeeds {
  const s = Math.trunc(seed);
  const lo = ((s % TWO_POW_32) + TWO_POW_32) % TWO_POW_32;
  const hi = ((Math.floor(s / TWO_POW_32) % TWO_POW_32) + TWO_POW_32) % TWO_POW_32;
  return { pc: lo >>> 0, pb: hi >>> 0 };
}

/** The 64-bit hash of `s.slice(start, end)` into out[at] (high word) and out[at + 1]. */
export function hashFeature(s: string, start: number, end: number, seeds: HashSeeds, out: Uint32Array, at: number): void {
  lookup3Utf16(s, start, end, seeds.pc, seeds.pb, out, at);
}
