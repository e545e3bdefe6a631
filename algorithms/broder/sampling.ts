/**
 * Which fingerprints of a document take part in the join, and which size enters the RR
 * denominator. Shared by the text jobs and the typed-array kernel so that both decide alike.
 *
 * - none: all fingerprints; size = the document's distinct fingerprints.
 * - mod (Broder; Nikkhoo 3.3.1): keep fp when fp mod m == residue, in the MR#1 mapper;
 *   size = the kept count, so RR is the Jaccard of the sampled sets.
 * - adaptive (Ye et al. section 6): like mod, with m chosen by the document's size group
 *   (its distinct fingerprint count before sampling).
 * - sct (Nikkhoo 3.3.2): applied in the MR#1 reducer, which drops a fingerprint shared by more
 *   than `threshold` documents; the mapper has already emitted the full size with each document,
 *   so RR = common kept fingerprints / (|A| + |B| − common kept). This is the thesis' own
 *   MapReduce design, and the reason its Table 3.4 shows precision 1.0: an SCT score never
 *   exceeds the full-shingle score.
 */
import type { Sampling } from './params.ts';

/** The modulus a document of `size` distinct fingerprints is sampled with, or null for no mapper sampling. */
export function documentModulus(sampling: Sampling, size: number): { m: number; residue: number } | null {
  switch (sampling.method) {
    case 'none':
    case 'sct':
      return null;
    case 'mod':
      return { m: sampling.m, residue: sampling.residue };
    case 'adaptive': {
      for (const g of sampling.groups) {
        if (g.max_size === null || size <= g.max_size) return { m: g.m, residue: 0 };
      }
      // Validation guarantees a last unbounded group or covers it; a document larger than every
      // bounded group falls in the last one.
      const last = sampling.groups[sampling.groups.length - 1];
      return last ? { m: last.m, residue: 0 } : null;
    }
  }
}

/** Whether the RR denominator uses the sampled size (mapper sampling) rather than the full size. */
export function usesSampledSize(sampling: Sampling): boolean {
  return sampling.method === 'mod' || sampling.method === 'adaptive';
}

/** The most documents a fingerprint may be shared by and still count (Infinity when no SCT). */
export function commonalityLimit(sampling: Sampling): number {
  return sampling.method === 'sct' ? sampling.threshold : Number.POSITIVE_INFINITY;
}

/** RR from the common count and the two sizes (equation 3.3 with |A ∪ B| = |A| + |B| − |A ∩ B|). */
export function resemblance(common: number, sizeA: number, sizeB: number): number {
  return common / (sizeA + sizeB - common);
}

/** Number of 2-subsets of a set of n documents: the pairs MR#1's reducer emits for one fingerprint. */
export function pairsOf(n: number): number {
  return (n * (n - 1)) / 2;
}
