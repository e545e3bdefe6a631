/**
 * Operations on token sets held as ascending integer arrays (ranks in the global token order),
 * over index ranges [start, end) so that no suffix is ever copied: the suffix filter of PPJoin+
 * and exact verification. The kernel calls them with global ranks, the verify job with ranks
 * local to the pair; both only compare tokens, so both get the same answers.
 */

/** First index p in [start, end) with s[p] >= w, or end. */
export function lowerBound(s: ArrayLike<number>, start: number, end: number, w: number): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s[mid] as number) < w) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Positions [i, j] of the first token x and y share, or null when they share none. */
export function firstCommon(x: ArrayLike<number>, nx: number, y: ArrayLike<number>, ny: number): [number, number] | null {
  let i = 0;
  let j = 0;
  while (i < nx && j < ny) {
    const a = x[i] as number;
    const b = y[j] as number;
    if (a === b) return [i, j];
    if (a < b) i++;
    else j++;
  }
  return null;
}

/**
 * Exact verification with an early stop: continues a merge of x[i..xe) and y[j..ye) that has
 * already found `common` shared tokens, and returns the final overlap, or -1 as soon as even
 * matching every remaining token of the shorter rest could not reach `alpha`. The cost is at
 * most |x| + |y| steps, and a pair that cannot qualify is dropped as soon as that is certain,
 * which is what keeps verification of 10⁵-token documents linear and short.
 */
export function overlapAtLeast(
  x: ArrayLike<number>,
  i: number,
  xe: number,
  y: ArrayLike<number>,
  j: number,
  ye: number,
  common: number,
  alpha: number,
): number {
  let o = common;
  while (i < xe && j < ye) {
    if (o + Math.min(xe - i, ye - j) < alpha) return -1;
    const a = x[i] as number;
    const b = y[j] as number;
    if (a === b) {
      o++;
      i++;
      j++;
    } else if (a < b) {
      i++;
    } else {
      j++;
    }
  }
  return o >= alpha ? o : -1;
}

/**
 * PPJoin+'s suffix filter (Xiao et al. 2008, Algorithm 3): a lower bound of the symmetric
 * difference |x[xs..xe) Δ y[ys..ye)|, found by splitting both at the middle token w of y:
 * |x Δ y| = |xl Δ yl| + |xr Δ yr| + (w ∉ x), where xl, yl hold the tokens before w and xr, yr
 * those after it, and each part is at least the difference of its sizes. Recursion refines the
 * parts down to `depth` levels. As soon as the bound passes `hmax` it is returned (the pair is
 * out), so the work stays O(2^depth · log n) even for 10⁵-token suffixes.
 *
 * The paper searches for w in a window of x's positions outside which the bound would pass hmax
 * anyway; this searches all of x (a binary search either way) and returns the bound itself,
 * which is never smaller: the same pairs are pruned, and every value returned is a true lower
 * bound (each term is one), so no qualifying pair ever is.
 */
export function suffixHammingBound(
  x: ArrayLike<number>,
  xs: number,
  xe: number,
  y: ArrayLike<number>,
  ys: number,
  ye: number,
  hmax: number,
  depth: number,
): number {
  const nx = xe - xs;
  const ny = ye - ys;
  if (depth <= 0 || nx === 0 || ny === 0) return Math.abs(nx - ny);
  const mid = ys + (ny >> 1);
  const w = y[mid] as number;
  const p = lowerBound(x, xs, xe, w);
  const found = p < xe && x[p] === w;
  const diff = found ? 0 : 1;
  const xr = found ? p + 1 : p;
  const rightSizes = Math.abs(xe - xr - (ye - mid - 1));
  const h = Math.abs(p - xs - (mid - ys)) + rightSizes + diff;
  if (h > hmax) return h;
  const hl = suffixHammingBound(x, xs, p, y, ys, mid, hmax - rightSizes - diff, depth - 1);
  if (hl + rightSizes + diff > hmax) return hl + rightSizes + diff;
  const hr = suffixHammingBound(x, xr, xe, y, mid + 1, ye, hmax - hl - diff, depth - 1);
  return hl + hr + diff;
}
