/**
 * The near-duplicate distribution of one variant (`distribution.csv`, the shape of Nikkhoo
 * Tables 3.1 and 3.3): for each RR threshold t, the percentage of ALL documents of the
 * collection that belong to at least one pair scoring ≥ t. The denominator is nDocs, not the
 * documents that appear in some pair.
 */
import type { PairList } from '../../contract/index.ts';
import { checkPairs } from './sorted-pairs.ts';

/** Percentages in 0..100, one per threshold, in the order given. Throws on nDocs ≤ 0 (a bug). */
export function nearDuplicateDistribution(pairs: PairList, nDocs: number, thresholds: readonly number[]): number[] {
  if (!(Number.isInteger(nDocs) && nDocs > 0)) throw new RangeError(`distribution: nDocs ${nDocs} is not a positive integer`);
  for (const t of thresholds) {
    if (!Number.isFinite(t)) throw new RangeError(`distribution: threshold ${t} is not a number`);
  }
  checkPairs(pairs, nDocs, 'distribution');
  // A document is near-duplicate at t exactly when its best pair scores ≥ t.
  const best = new Float64Array(nDocs).fill(-Infinity);
  const { a, b, score } = pairs;
  for (let i = 0; i < a.length; i++) {
    const s = score[i]!;
    if (s > best[a[i]!]!) best[a[i]!] = s;
    if (s > best[b[i]!]!) best[b[i]!] = s;
  }
  return thresholds.map((t) => {
    let count = 0;
    for (let d = 0; d < nDocs; d++) if (best[d]! >= t) count++;
    return (100 * count) / nDocs;
  });
}
