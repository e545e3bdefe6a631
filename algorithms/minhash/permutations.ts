/**
 * The random hash functions of a MinHash plan, derived from the experiment's seed alone:
 * h_i(x) = (a_i·x + b_i) mod p, p = 2^61 − 1, a_i uniform in [1, p), b_i uniform in [0, p)
 * (Carter and Wegman's universal family, as datasketch draws it), and the 2-universal hash that
 * one-permutation densification uses to pick a bin to borrow from.
 *
 * The draws come from SplitMix64 (Steele, Lea and Flood 2014) seeded with the seed, so the same
 * seed gives the same functions on every backend and in every task process. Permutation i is
 * the i-th draw whatever k is: a plan with 64 permutations uses the first 64 of a plan with 128,
 * so a sweep over k compares nested sketches rather than unrelated ones.
 */
import { MERSENNE_61 } from './mersenne.ts';

const MASK_64 = (1n << 64n) - 1n;

/** SplitMix64: a 64-bit generator whose every state gives a well-mixed output. */
export class SplitMix64 {
  private state: bigint;

  constructor(seed: bigint) {
    this.state = BigInt.asUintN(64, seed);
  }

  next(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK_64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
    return z ^ (z >> 31n);
  }

  /** Uniform in [lo, p): the top 61 bits of a draw, rejected when they are p or more (or below lo). */
  residue(lo: bigint): bigint {
    for (;;) {
      const v = this.next() >> 3n;
      if (v >= lo && v < MERSENNE_61) return v;
    }
  }
}

/** Streams drawn from one seed for different purposes, so that one never shifts the other. */
const PERMUTATION_STREAM = 0x6d696e68617368n; // "minhash"
const DENSIFY_STREAM = 0x64656e736966n; // "densif"

/**
 * The generator of one purpose for one seed. SplitMix64's states advance by a fixed step, so
 * seeds used directly as states would give overlapping streams (seed s + 1 would draw what seed
 * s draws one step later); the state is instead the mix of (seed, purpose), which puts the
 * streams of different seeds at unrelated places of the sequence.
 */
function stream(seed: number, purpose: bigint): SplitMix64 {
  return new SplitMix64(new SplitMix64((BigInt(seed) << 64n) ^ purpose).next() ^ BigInt(seed) ^ (purpose << 8n));
}

/**
 * The first `k` hash functions for `seed`, as 4 uint32 words each: a_hi, a_lo, b_hi, b_lo
 * (the high words have 29 bits).
 */
export function permutationWords(seed: number, k: number): Uint32Array {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative integer, got ${seed}`);
  const g = stream(seed, PERMUTATION_STREAM);
  const out = new Uint32Array(4 * k);
  for (let i = 0; i < k; i++) {
    const a = g.residue(1n);
    const b = g.residue(0n);
    out[4 * i] = Number(a >> 32n);
    out[4 * i + 1] = Number(a & 0xffffffffn);
    out[4 * i + 2] = Number(b >> 32n);
    out[4 * i + 3] = Number(b & 0xffffffffn);
  }
  return out;
}

/**
 * The 2-universal hash of optimal densification, h(j, attempt) = ((c·(j·2^32 + attempt) + d)
 * mod p) mod k, with c and d drawn for `seed`: one fixed function for every document, which is
 * what makes two documents with the same empty bins borrow from the same places.
 */
export interface DensifyHash {
  /** c and d as 29-bit high and 32-bit low halves */
  readonly cHi: number;
  readonly cLo: number;
  readonly dHi: number;
  readonly dLo: number;
}

export function densifyHash(seed: number): DensifyHash {
  const g = stream(seed, DENSIFY_STREAM);
  const c = g.residue(1n);
  const d = g.residue(0n);
  return { cHi: Number(c >> 32n), cLo: Number(c & 0xffffffffn), dHi: Number(d >> 32n), dLo: Number(d & 0xffffffffn) };
}
