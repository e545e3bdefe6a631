/**
 * The Mann–Whitney U test (Wilcoxon rank-sum), two-sided, with the normal approximation and the
 * tie correction of the variance. simple-statistics gives the rank sum (average ranks for
 * ties) but no p-value; the rest is here. No continuity correction: with three samples a side,
 * complete separation then gives p = 0.0495, the smallest sample size at which a 5% test can
 * say anything at all (asv likewise only tests where the sample count makes p reachable).
 */
import { errorFunction, wilcoxonRankSum } from 'simple-statistics';

export interface MannWhitneyResult {
  /** U of the first sample: the number of (x, y) pairs with x > y, ties counting one half */
  readonly u: number;
  readonly z: number;
  /** two-sided */
  readonly p: number;
}

function tieTerm(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let sum = 0;
  for (const t of counts.values()) sum += t ** 3 - t;
  return sum;
}

export function mannWhitneyU(x: readonly number[], y: readonly number[]): MannWhitneyResult {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new Error('mannWhitneyU: both samples need at least one value');
  const u = wilcoxonRankSum(x, y) - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm([...x, ...y]) / (n * (n - 1)));
  // Every value tied: no evidence of any shift.
  if (!(variance > 0)) return { u, z: 0, p: 1 };
  const z = (u - (n1 * n2) / 2) / Math.sqrt(variance);
  const p = 1 - errorFunction(Math.abs(z) / Math.SQRT2);
  return { u, z, p: Math.min(1, Math.max(0, p)) };
}
