/**
 * The set-similarity arithmetic of the sentence join (Zhang et al. 2010 §4.2, Algorithm 1), shared
 * by PDC-MR and SpotSigs and by their text jobs and kernels, so that all decide alike, double
 * for double.
 */

/**
 * The length filter of equations (1)-(2): J(A, B) <= min(|A|, |B|) / max(|A|, |B|), so a pair
 * whose size ratio is below τ cannot reach τ. A ratio of exactly τ is kept (Algorithm 1's
 * `>= τ`): J = τ is then still possible, when the smaller set lies inside the larger one (the
 * prose's "|A|/|B| <= τ can be safely removed" would lose that pair).
 */
export function lengthCompatible(sizeA: number, sizeB: number, tau: number): boolean {
  return sizeA <= sizeB ? sizeA / sizeB >= tau : sizeB / sizeA >= tau;
}

/**
 * The sizes s for which `lengthCompatible(size, s, tau)` holds: an interval [lo, hi] around
 * `size`, since s / size grows with s below it and size / s falls above it (division rounds
 * monotonically). Found with `lengthCompatible` itself, so that a join testing the interval
 * decides exactly as one testing each pair. A size of 0 has none: [1, 0].
 */
export function compatibleSizes(size: number, tau: number): [number, number] {
  if (size <= 0) return [1, 0];
  let lo = Math.min(size, Math.max(1, Math.floor(size * tau)));
  while (lo > 1 && lengthCompatible(size, lo - 1, tau)) lo--;
  while (lo < size && !lengthCompatible(size, lo, tau)) lo++;
  let hi = Math.max(size, Math.floor(size / tau));
  while (lengthCompatible(size, hi + 1, tau)) hi++;
  while (hi > size && !lengthCompatible(size, hi, tau)) hi--;
  return [lo, hi];
}

/** Jaccard from the shared count and the two set sizes: c / (|A| + |B| − c). */
export function jaccard(common: number, sizeA: number, sizeB: number): number {
  return common / (sizeA + sizeB - common);
}

/**
 * Algorithm 1's reducer, with the paper's typo mended: the printed `< τ` contradicts the text
 * ("if the Jaccard similarity between a sentence pair is over a threshold, they are considered
 * duplicates"); a pair is a near-duplicate when its Jaccard is at least τ.
 */
export function nearDuplicate(common: number, sizeA: number, sizeB: number, tau: number): boolean {
  return jaccard(common, sizeA, sizeB) >= tau;
}
