/**
 * What happens to a candidate pair after the position filter, the same in the kernel and in the
 * verify job: PPJoin+'s suffix filter, MapDupReducer's signature filter, exact verification.
 * Sets are ascending integer arrays given as (array, start, size).
 */
import { maxHamming } from './bounds.ts';
import { overlapAtLeast, suffixHammingBound } from './sets.ts';
import type { JoinSettings } from './settings.ts';

export const PRUNED_BY_SUFFIX = -1;
export const PRUNED_BY_SIGNATURE = -2;
export const BELOW_THRESHOLD = -3;

export interface Candidate {
  readonly x: ArrayLike<number>;
  readonly xs: number;
  readonly nx: number;
  readonly y: ArrayLike<number>;
  readonly ys: number;
  readonly ny: number;
  /** α: common tokens the pair needs */
  readonly alpha: number;
  /** positions of the first common token in x and y (0-based) */
  readonly firstI: number;
  readonly firstJ: number;
  /** verification resumes at these positions with `common` shared tokens already counted before them */
  readonly resumeI: number;
  readonly resumeJ: number;
  readonly common: number;
  /** Hamming distance of the signatures (read only when the signature filter is on) */
  readonly signatureDistance: number;
}

/** The pair's overlap when it qualifies, else one of the negative codes above. */
export function decideCandidate(c: Candidate, s: JoinSettings): number {
  const budget = maxHamming(c.nx, c.ny, c.alpha);
  if (s.suffix) {
    // Before the first common token every token of either set is a difference: i + j of them.
    const hmax = budget - c.firstI - c.firstJ;
    const h = suffixHammingBound(c.x, c.xs + c.firstI + 1, c.xs + c.nx, c.y, c.ys + c.firstJ + 1, c.ys + c.ny, hmax, s.suffixDepth);
    if (h > hmax) return PRUNED_BY_SUFFIX;
  }
  if (s.signature && c.signatureDistance > budget) return PRUNED_BY_SIGNATURE;
  const o = overlapAtLeast(c.x, c.xs + c.resumeI, c.xs + c.nx, c.y, c.ys + c.resumeJ, c.ys + c.ny, c.common, c.alpha);
  return o < 0 ? BELOW_THRESHOLD : o;
}
