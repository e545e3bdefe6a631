/**
 * Which fingerprints of a document take part in the join, and which size enters the RR
 * denominator. Shared by the text jobs and the typed-array kernel so that both decide alike.
 *
 * - none: all fingerprints; size = the document's distinct fingerprints.
 * - mod (Broder; Nikkhoo 3.3.1): keep fp when fp mod m == residue, in the MR#1 mapper;
 *   size = the kept count, so RR is the Jaccard of the sampled sets.
 * - adaptive (Ye et al. section 6): like mod with residue 0, with m chosen by the document's
 *   size group (its distinct fingerprints or its words). The moduli divide one another
 *   (params.ts), which makes them levels: a fingerprint kept at a coarser modulus is kept at
 *   every finer one. Two documents are compared at the coarser of their two levels: the shared
 *   fingerprints are those both mappers kept, which are exactly the shared ones of the coarser
 *   sample, and each size is the document's sample at that coarser modulus. The score of a
 *   pair is then the Jaccard of two samples taken alike, as plain mod sampling at that modulus
 *   gives it, and not a small document's large sample set against a large one's small sample
 *   (which scored a 600-word text and itself plus 20 words 0.161 instead of 0.969).
 * - sct (Nikkhoo 3.3.2): applied in the MR#1 reducer, which drops a fingerprint shared by more
 *   than `threshold` documents; the mapper has already emitted the full size with each document,
 *   so RR = common kept fingerprints / (|A| + |B| − common kept). This is the thesis' own
 *   MapReduce design, and the reason its Table 3.4 shows precision 1.0: an SCT score never
 *   exceeds the full-shingle score.
 * - `mod` with `residues: all` and `adaptive-target` are not plans of their own: the adapter
 *   expands them into trials and calibration runs (index.ts), each a plain mod or adaptive.
 */
import type { Sampling } from './params.ts';

/** The moduli a mapper samples with, ascending, each dividing the next; [] when it keeps every fingerprint. */
export interface SamplingLevels {
  readonly moduli: readonly number[];
  readonly residue: number;
}

/** Thrown when a plan is asked for params the adapter expands (a bug in the caller). */
export function notAPlan(sampling: Sampling): Error {
  const what = sampling.method === 'mod' ? 'mod sampling with residues: all is run as one trial per residue' : 'adaptive-target sampling is run as calibration runs and an adaptive run';
  return new Error(`broder: ${what}; plan those (adapter.trials / adapter.calibration), not this`);
}

export function samplingLevels(sampling: Sampling): SamplingLevels {
  switch (sampling.method) {
    case 'none':
    case 'sct':
      return { moduli: [], residue: 0 };
    case 'mod':
      if (sampling.residues !== undefined) throw notAPlan(sampling);
      return { moduli: [sampling.m], residue: sampling.residue };
    case 'adaptive':
      return { moduli: [...new Set(sampling.groups.map((g) => g.m))].sort((x, y) => x - y), residue: 0 };
    case 'adaptive-target':
      throw notAPlan(sampling);
  }
}

/** Whether the local kernel reports MR#2's `distinct_pairs` (every variant but a ground truth that skips it). */
export function countsDistinctPairs(s: Sampling): boolean {
  return !(s.method === 'none' && s.distinct_pairs === 'skip');
}

/**
 * Whether the out-of-core join (`external-join.ts`) runs this sampling: it samples every
 * document with one modulus, so not adaptive sampling, whose pairs are compared at the coarser
 * of two levels (the in-memory kernel and the text jobs run that).
 */
export function runsOutOfCore(sampling: Sampling): boolean {
  return sampling.method === 'none' || sampling.method === 'sct' || sampling.method === 'mod';
}

/** The modulus and residue every document's mapper keeps a fingerprint by (mod sampling); null when it keeps them all. */
export function singleModulus(sampling: Sampling): { m: number; residue: number } | null {
  if (!runsOutOfCore(sampling)) throw new Error(`broder: ${sampling.method} sampling has a modulus per size group, not one`);
  const levels = samplingLevels(sampling);
  return levels.moduli.length === 0 ? null : { m: levels.moduli[0] as number, residue: levels.residue };
}

/** Whether a document's group depends on its word count (adaptive by words). */
export function usesWords(sampling: Sampling): boolean {
  return sampling.method === 'adaptive' && sampling.by === 'words';
}

/**
 * The adaptive size group of a document of `fingerprints` distinct fingerprints and `words`
 * words: the first whose max_size it does not exceed, the last one for a document larger than
 * every bound; -1 for the other methods.
 */
export function adaptiveGroup(sampling: Sampling, fingerprints: number, words: number): number {
  if (sampling.method !== 'adaptive') return -1;
  const size = sampling.by === 'words' ? words : fingerprints;
  const i = sampling.groups.findIndex((g) => g.max_size === null || size <= g.max_size);
  return i >= 0 ? i : sampling.groups.length - 1;
}

/** The level (index into `levels.moduli`) a document is sampled at; -1 when the mapper keeps everything. */
export function documentLevel(sampling: Sampling, levels: SamplingLevels, fingerprints: number, words: number): number {
  if (levels.moduli.length === 0) return -1;
  if (sampling.method !== 'adaptive') return 0;
  const g = sampling.groups[adaptiveGroup(sampling, fingerprints, words)];
  return levels.moduli.indexOf((g as { m: number }).m);
}

/** The counter names of adaptive group `g`: its documents' fingerprints, and those their mappers kept. */
export function groupCounters(g: number): { readonly fingerprints: string; readonly kept: string } {
  return { fingerprints: `group_${g}_fingerprints`, kept: `group_${g}_fingerprints_kept` };
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
