/**
 * A distribution-free confidence interval for a median (the order-statistic interval): with n
 * values sorted, [x(k), x(n + 1 − k)] (1-based), k the largest with P(Binomial(n, ½) < k) at most
 * half of 1 − level. It assumes nothing of the distribution, which on a shared machine has long
 * tails (a neighbour's load lands in some rounds and not others). For the error samples' share
 * (error-samples.ts): whether a median over or under the target means anything.
 */
export interface MedianInterval {
  readonly low: number;
  readonly high: number;
  /** the coverage of the order statistics chosen: at least the level asked for, or less when n is too small for any pair (n < 6 at 95%) */
  readonly coverage: number;
}

/** The interval of the median of `values` at `level` (0.95 unless given); undefined for no values. */
export function medianInterval(values: readonly number[], level = 0.95): MedianInterval | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  // k: the largest j up to the middle with P(B < j) ≤ tail, B ~ Binomial(n, ½); at least 1 (the
  // whole range) when n is too small for any. `below` is P(B < k) for the k chosen.
  let k = 1;
  let below = 2 ** -n;
  let cdf = 0;
  let term = 2 ** -n; // P(B = j − 1)
  for (let j = 1; j <= Math.floor((n + 1) / 2); j++) {
    cdf += term; // P(B < j)
    if (cdf > tail) break;
    k = j;
    below = cdf;
    term = (term * (n - (j - 1))) / j;
  }
  return { low: sorted[k - 1] as number, high: sorted[n - k] as number, coverage: 1 - 2 * below };
}
