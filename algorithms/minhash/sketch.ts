/**
 * MinHash signatures of sets of fingerprints: k slots per set, each slot a 61-bit hash value
 * (hi 29 bits, lo 32 bits) or, for b-bit MinHash, its lowest b bits.
 *
 * - k-permutation (Broder 1997): slot i = min over x of h_i(x), k independent hash functions.
 * - one-permutation with optimal densification (Li, Owen and Zhang 2012; Shrivastava 2017):
 *   one hash h_0, its range cut into k bins, slot j = the least h_0(x) falling in bin j; an empty
 *   bin j borrows the value of bin h(j, attempt) for attempt = 1, 2, … until that bin is not
 *   empty, where h is one 2-universal hash shared by all documents (Shrivastava 2017,
 *   Algorithm 2). The cost is one hash per element instead of k.
 * - b-bit (Li and König 2010): keep the lowest b bits of each slot.
 *
 * The same functions serve the text jobs (one document at a time) and the kernel (a range of
 * documents), so both produce the same slots bit for bit.
 */
import type { HashKernel, ResidueSets } from './hash-kernel.ts';
import { mulAddMod, P_HI, P_LO, reduceWords } from './mersenne.ts';
import type { DensifyHash } from './permutations.ts';

export type SketchKind = 'k-permutation' | 'one-permutation';

export interface SketchSpec {
  readonly kind: SketchKind;
  /** slots per signature (permutations, or bins of one-permutation hashing) */
  readonly k: number;
  /** b of b-bit MinHash, or null for the full 61-bit values */
  readonly bits: number | null;
  /** `permutationWords(seed, k)` (one-permutation uses the first) */
  readonly perms: Uint32Array;
  readonly densify: DensifyHash;
}

export interface Signatures {
  /** 2 words per slot, k slots per set: `values[2(s·k + i)]` high, `[… + 1]` low */
  readonly values: Uint32Array;
  /** empty bins filled by densification, over all sets */
  readonly densified: number;
}

/** Fingerprints (`width` words each, most significant first) reduced mod p as hi/lo pairs. */
export function residuesOf(words: Uint32Array, count: number, width: 2 | 4): Uint32Array {
  const out = new Uint32Array(2 * count);
  for (let i = 0; i < count; i++) reduceWords(words, i * width, width, out, 2 * i);
  return out;
}

/**
 * Signatures of the sets. A set's elements may repeat (a minimum does not change when an
 * element comes twice); an empty set's slots are unused (all p).
 */
export function signatures(sets: ResidueSets, spec: SketchSpec, kernel: HashKernel): Signatures {
  const values = kernel.signatures(sets, spec.perms, spec.k, spec.kind);
  const n = sets.starts.length - 1;
  let densified = 0;
  if (spec.kind === 'one-permutation') {
    const scratch = new Uint32Array(2 * spec.k);
    for (let s = 0; s < n; s++) densified += densify(values, s * spec.k, spec.k, spec.densify, scratch);
  }
  if (spec.bits !== null) keepLowBits(values, spec.bits);
  return { values, densified };
}

/** Whether slot `at` (a word index) is an empty bin: it holds p, which no hash value equals. */
function isEmpty(values: Uint32Array, at: number): boolean {
  return values[at] === P_HI && values[at + 1] === P_LO;
}

/** After this many attempts a bin borrows from the next non-empty bin instead (never reached in practice: see below). */
const MAX_ATTEMPTS_PER_BIN = 64;

/**
 * Optimal densification of the k bins of one set starting at slot `first`: every empty bin j
 * takes the value of the first non-empty bin among h(j, 1), h(j, 2), … (the bins as they were
 * before densification). With e empty bins of k, an attempt fails with probability e/k, so
 * 64·k attempts all fail with probability below e^−64 when even one bin is full; should it
 * happen, the bin borrows from the next non-empty bin after j, a rule every backend applies
 * alike. Returns the number of bins filled.
 */
export function densify(values: Uint32Array, first: number, k: number, h: DensifyHash, scratch: Uint32Array): number {
  let empty = 0;
  for (let j = 0; j < k; j++) if (isEmpty(values, 2 * (first + j))) empty++;
  if (empty === 0 || empty === k) return 0;
  const before = scratch.subarray(0, 2 * k);
  before.set(values.subarray(2 * first, 2 * (first + k)));
  const hv = new Uint32Array(2);
  for (let j = 0; j < k; j++) {
    if (!isEmpty(before, 2 * j)) continue;
    let from = -1;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS_PER_BIN * k; attempt++) {
      mulAddMod(h.cHi, h.cLo, j, attempt, h.dHi, h.dLo, hv, 0);
      const next = (((hv[0] as number) % k) * 4294967296 + (hv[1] as number)) % k;
      if (!isEmpty(before, 2 * next)) {
        from = next;
        break;
      }
    }
    if (from < 0) {
      from = (j + 1) % k;
      while (isEmpty(before, 2 * from)) from = (from + 1) % k;
    }
    values[2 * (first + j)] = before[2 * from] as number;
    values[2 * (first + j) + 1] = before[2 * from + 1] as number;
  }
  return empty;
}

/** b-bit MinHash: the lowest b bits of every slot (b <= 32, so they are in the low word). */
export function keepLowBits(values: Uint32Array, bits: number): void {
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  for (let i = 0; i < values.length; i += 2) {
    values[i] = 0;
    values[i + 1] = ((values[i + 1] as number) & mask) >>> 0;
  }
}
