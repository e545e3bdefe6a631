/**
 * Comparison of a run with the ground truth (docs/design.md §8.3; Nikkhoo equations 3.6
 * to 3.9): average error and correlation over P, precision and recall over pairs (Ye et al.)
 * and over documents (the thesis' reading).
 *
 * The run's decisions (Res) are read by the detector's rule: its pairs scoring at least the
 * threshold, or every pair it reports. Average error and correlation are computed only when its
 * scores estimate the ground truth's RR, over P = {G ≥ f or S ≥ f} with f the larger of
 * `minScore` and the score floor from which the detector reports every pair.
 *
 * A measure whose denominator is empty, or a correlation of constant scores, is null plus a
 * warning naming the CSV column and the reason, so that no NaN ever reaches a CSV; a measure
 * that does not apply is null with the reason in `notApplicable`.
 */
import type { PairList } from '../../contract/index.ts';
import { forEachAlignedPair } from './merge-pairs.ts';
import { pearson } from './pearson.ts';
import { sortPairs } from './sorted-pairs.ts';

export interface CompareOptions {
  /** `evaluate.min_score`: P holds the pairs with G ≥ minScore or S ≥ minScore. */
  readonly minScore: number;
  /** `evaluate.threshold`: a pair with G ≥ threshold is a near-duplicate (Dup), and so is a run pair with S ≥ threshold under `score-at-threshold`. */
  readonly threshold: number;
  /** The detector's decision rule (the plan's `output.decisions`); default `score-at-threshold`. */
  readonly decisions?: 'score-at-threshold' | 'every-reported-pair';
  /**
   * The run's scores estimate the RR and are complete from this floor up (the plan's `score`);
   * a string instead says why they do not, and average error and correlation are not computed.
   * Default 0.
   */
  readonly scores?: number | string;
  /** told of each pair the comparison counts wrong, in (a, b) order (evaluate/explain/errors.ts ErrorSampler) */
  readonly wrong?: WrongPairs;
}

/**
 * The pairs precision and recall count against the run, as the comparison meets them: a false
 * positive is in Res and not in Dup, a false negative in Dup and not in Res. The error samples
 * are drawn from these, so that they are the errors the measures count, with no pass of their own.
 */
export interface WrongPairs {
  /** `truth`: G, 0 when the ground truth has no score for the pair */
  falsePositive(a: number, b: number, score: number, truth: number): void;
  /** `score`: null when the run did not report the pair */
  falseNegative(a: number, b: number, score: number | null, truth: number): void;
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
  /** One line per null measure with an empty denominator: `column: undefined, reason`. */
  readonly warnings: readonly string[];
  /** Measures that do not apply to this run, with the reason (avg_error and correlation of a score that is not an RR). */
  readonly notApplicable: Readonly<Record<string, string>>;
}

/**
 * Compares `run` with `truth`, both pairs over the same `nDocs` documents, in any order.
 * Throws (a bug, not a user error) on malformed lists, duplicate pairs or options out of range.
 */
export function compareWithTruth(truth: PairList, run: PairList, nDocs: number, opts: CompareOptions): Comparison {
  checkOptions(opts);
  const { threshold } = opts;
  const byDecision = (opts.decisions ?? 'score-at-threshold') === 'every-reported-pair';
  const scores = opts.scores ?? 0;
  const estimatesRr = typeof scores === 'number';
  const minScore = estimatesRr ? Math.max(opts.minScore, scores) : opts.minScore;
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
  const wrong = opts.wrong;
  forEachAlignedPair(sortedTruth, sortedRun, (a, b, g, s, reported) => {
    if (estimatesRr && (g >= minScore || s >= minScore)) {
      gP[nP] = g;
      sP[nP] = s;
      nP++;
      absErrorSum += Math.abs(g - s);
    }
    const inDup = g >= threshold;
    const inRes = byDecision ? reported : s >= threshold;
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
    else if (wrong && inRes) wrong.falsePositive(a, b, s, g);
    else if (wrong && inDup) wrong.falseNegative(a, b, reported ? s : null, g);
  });
  const docs = countDocs(dupDocs, resDocs);

  const warnings: string[] = [];
  const undefinedBecause = (column: string, reason: string): null => {
    warnings.push(`${column}: undefined, ${reason}`);
    return null;
  };
  const emptyP = `no pair has a ground-truth or run score >= ${minScore} (|P| = 0)`;
  const noRes = byDecision ? 'the run reports no pair (|Res| = 0)' : `the run has no pair with score >= ${threshold} (|Res| = 0)`;
  const notApplicable: Record<string, string> = {};
  const doesNotApply = (column: string, reason: string): null => {
    notApplicable[column] = reason;
    return null;
  };
  const noDup = `the ground truth has no pair with score >= ${threshold} (|Dup| = 0)`;

  const avgError = !estimatesRr ? doesNotApply('avg_error', scores) : nP > 0 ? absErrorSum / nP : undefinedBecause('avg_error', emptyP);

  const r = pearson(gP, sP, nP);
  const correlation = !estimatesRr
    ? doesNotApply('correlation', scores)
    : r.kind === 'ok'
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
    notApplicable,
  };
}

function checkOptions({ minScore, threshold, scores }: CompareOptions): void {
  if (typeof scores === 'number' && !(scores >= 0 && scores <= 1)) throw new RangeError(`compare: score floor ${scores} is not in [0, 1]`);
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
