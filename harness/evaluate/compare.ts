/**
 * Comparison of a run with the ground truth (DESIGN.md "Definitions"; Nikkhoo equations 3.6
 * to 3.9): average error and correlation over P, precision and recall over pairs (Ye et al.)
 * and over documents (the thesis' reading).
 *
 * A measure whose denominator is empty, or a correlation of constant scores, is null plus a
 * warning naming the CSV column and the reason, so that no NaN ever reaches a CSV.
 */
import type { PairList } from '../../algorithms/types.ts';
import { forEachAlignedPair } from './merge-pairs.ts';
import { pearson } from './pearson.ts';
import { sortPairs } from './sorted-pairs.ts';

export interface CompareOptions {
  /** `evaluate.min_score`: P holds the pairs with G ≥ minScore or S ≥ minScore. */
  readonly minScore: number;
  /** `evaluate.threshold`: a pair with score ≥ threshold is a near-duplicate. */
  readonly threshold: number;
}

export interface Comparison {
  /** |P| */
  readonly pairsCompared: number;
  /** Σ_P |G − S| / |P| */
  readonly avgError: number | null;
  /** Pearson's r of (G, S) over P */
  readonly correlation: number | null;
  readonly precisionPairs: number | null;
  readonly recallPairs: number | null;
  readonly f1Pairs: number | null;
  readonly precisionDocs: number | null;
  readonly recallDocs: number | null;
  /** |Dup|: ground-truth pairs at or above the threshold. */
  readonly truthPairs: number;
  /** |Res|: run pairs at or above the threshold. */
  readonly runPairs: number;
  /** One line per null measure: `column: undefined, reason`. */
  readonly warnings: readonly string[];
}

/**
 * Compares `run` with `truth`, both pairs over the same `nDocs` documents, in any order.
 * Throws (a bug, not a user error) on malformed lists, duplicate pairs or options out of range.
 */
export function compareWithTruth(truth: PairList, run: PairList, nDocs: number, opts: CompareOptions): Comparison {
  checkOptions(opts);
  const { minScore, threshold } = opts;
  const sortedTruth = sortPairs(truth, nDocs, 'ground truth');
  const sortedRun = sortPairs(run, nDocs, 'run');

  const capacity = sortedTruth.a.length + sortedRun.a.length;
  const gP = new Float64Array(capacity);
  const sP = new Float64Array(capacity);
  let nP = 0;
  let absErrorSum = 0;
  let dupPairs = 0;
  let resPairs = 0;
  let bothPairs = 0;
  const dupDocs = new Uint8Array(nDocs);
  const resDocs = new Uint8Array(nDocs);
  forEachAlignedPair(sortedTruth, sortedRun, (a, b, g, s) => {
    if (g >= minScore || s >= minScore) {
      gP[nP] = g;
      sP[nP] = s;
      nP++;
      absErrorSum += Math.abs(g - s);
    }
    const inDup = g >= threshold;
    const inRes = s >= threshold;
    if (inDup) {
      dupPairs++;
      dupDocs[a] = 1;
      dupDocs[b] = 1;
    }
    if (inRes) {
      resPairs++;
      resDocs[a] = 1;
      resDocs[b] = 1;
    }
    if (inDup && inRes) bothPairs++;
  });
  const docs = countDocs(dupDocs, resDocs);

  const warnings: string[] = [];
  const undefinedBecause = (column: string, reason: string): null => {
    warnings.push(`${column}: undefined, ${reason}`);
    return null;
  };
  const emptyP = `no pair has a ground-truth or run score >= ${minScore} (|P| = 0)`;
  const noRes = `the run has no pair with score >= ${threshold} (|Res| = 0)`;
  const noDup = `the ground truth has no pair with score >= ${threshold} (|Dup| = 0)`;

  const avgError = nP > 0 ? absErrorSum / nP : undefinedBecause('avg_error', emptyP);

  const r = pearson(gP, sP, nP);
  const correlation =
    r.kind === 'ok'
      ? r.r
      : undefinedBecause('correlation', r.kind === 'empty' ? emptyP : constantReason(r.which, nP));

  const precisionPairs = resPairs > 0 ? bothPairs / resPairs : undefinedBecause('precision_pairs', noRes);
  const recallPairs = dupPairs > 0 ? bothPairs / dupPairs : undefinedBecause('recall_pairs', noDup);
  const f1Pairs =
    precisionPairs === null || recallPairs === null
      ? undefinedBecause('f1_pairs', `${precisionPairs === null ? 'precision_pairs' : 'recall_pairs'} is undefined`)
      : harmonicMean(precisionPairs, recallPairs);

  const precisionDocs = docs.res > 0 ? docs.both / docs.res : undefinedBecause('precision_docs', noRes);
  const recallDocs = docs.dup > 0 ? docs.both / docs.dup : undefinedBecause('recall_docs', noDup);

  return {
    pairsCompared: nP,
    avgError,
    correlation,
    precisionPairs,
    recallPairs,
    f1Pairs,
    precisionDocs,
    recallDocs,
    truthPairs: dupPairs,
    runPairs: resPairs,
    warnings,
  };
}

function checkOptions({ minScore, threshold }: CompareOptions): void {
  // A bound of 0 would put every pair of the collection, reported or not, into P or Dup/Res.
  if (!(minScore > 0 && minScore <= 1)) throw new RangeError(`compare: minScore ${minScore} is not in (0, 1]`);
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`compare: threshold ${threshold} is not in (0, 1]`);
}

function countDocs(dup: Uint8Array, res: Uint8Array): { dup: number; res: number; both: number } {
  let nDup = 0;
  let nRes = 0;
  let nBoth = 0;
  for (let d = 0; d < dup.length; d++) {
    nDup += dup[d]!;
    nRes += res[d]!;
    nBoth += dup[d]! & res[d]!;
  }
  return { dup: nDup, res: nRes, both: nBoth };
}

function harmonicMean(p: number, r: number): number {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

function constantReason(which: 'x' | 'y' | 'both', nP: number): string {
  const whose = which === 'x' ? 'ground-truth scores are' : which === 'y' ? 'run scores are' : 'scores are';
  return `the ${whose} constant over the ${nP} pairs of P (zero variance)`;
}
