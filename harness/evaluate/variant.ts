/**
 * Everything the evaluation says about one variant against the ground truth, from what its
 * plan declared (contract/plan.ts): which pairs are its decisions, whether its scores estimate
 * the RR (and from which floor), and which counter counts its candidates.
 */
import { readCounter, type Counters, type PairList, type PairScorer, type PlanOutput } from '../../contract/index.ts';
import { compareWithTruth, type WrongPairs } from './compare.ts';
import { nearDuplicateDistribution } from './distribution.ts';
import type { DocumentSizes } from './size-groups.ts';
import { evaluateSlices, type VariantSlices } from './slices.ts';
import { restrictToScores } from './merge-pairs.ts';
import { sortedPartOf, sortPairs } from './sorted-pairs.ts';
import { withLookups } from './truth-lookups.ts';

/**
 * The thresholds the measures take. The config's `evaluate` section (experiment/schema.ts) has
 * these fields under these names, so the loaded section is passed as it is.
 */
export interface EvaluationSettings {
  /** RR at or above which a pair is a near-duplicate */
  readonly threshold: number;
  /** more thresholds, each with its own precision and recall */
  readonly thresholds?: readonly number[];
  /** the lowest score that puts a pair in the compared set */
  readonly min_score: number;
  /** the RR thresholds of the near-duplicate distribution */
  readonly distribution: readonly number[];
}

export interface TruthSummary {
  /** the ground truth's pairs, sorted (sortPairs) */
  readonly pairs: PairList;
  /** its candidate pairs, null when its plan declares none or the counter is missing */
  readonly candidates: number | null;
  /**
   * Its exact score of any pair, when it reports only from the lowest score the measures read
   * (truth-lookups.ts); without it, a pair it did not report scores 0.
   */
  readonly scorer?: PairScorer;
}

export interface VariantEvaluation {
  /** `pairs`, the quality measures and, when the plan declares candidates, `candidate_pairs` and `candidate_reduction_pct` */
  readonly measures: Record<string, number | null>;
  readonly notApplicable: Record<string, string>;
  readonly warnings: string[];
  readonly distribution: (number | null)[];
  readonly pairsCompared: number;
  /** the lowest score a pair needs to be written to the pairs file */
  readonly pairsFileFloor: number;
  /** precision and recall per size group and threshold, when the documents' sizes were given */
  readonly slices?: VariantSlices;
}

/**
 * The lowest score of a pair in the pairs file: min_score for RR estimates decided at the
 * threshold (docs/design.md §8.4), none otherwise: when every reported pair is a decision, a pair below
 * min_score is still one of the detector's near-duplicates and must be in the file.
 */
export function pairsFileFloor(output: PlanOutput, minScore: number): number {
  return output.score.kind === 'resemblance' && output.decisions.kind === 'score-at-threshold' ? minScore : -Infinity;
}

/**
 * The lowest score any measure looks at: every comparison restricts both pair lists to the
 * pairs scoring at least this in one of them (restrictToScores), so a score below it in both
 * changes no measure.
 */
export function lowestMeasuredScore(evaluate: EvaluationSettings, extraThresholds: readonly number[] = []): number {
  return Math.min(evaluate.min_score, evaluate.threshold, ...(evaluate.thresholds ?? []), ...extraThresholds, ...evaluate.distribution);
}

export async function evaluateVariant(args: {
  readonly pairs: PairList;
  readonly output: PlanOutput;
  readonly counters: Counters;
  readonly documents: number;
  /** size groups come with `sizes` */
  readonly evaluate: EvaluationSettings;
  /** undefined when this variant is the ground truth */
  readonly truth: TruthSummary | undefined;
  /** the documents' words and size groups (evaluate.size_groups) */
  readonly sizes?: DocumentSizes;
  /** thresholds the slices are computed at after evaluate's own */
  readonly extraThresholds?: readonly number[];
  /** the run's interrupt: the truth's look-ups stop at it */
  readonly signal?: AbortSignal;
  /** told of each pair the comparison with the truth counts wrong (compare.ts WrongPairs) */
  readonly wrong?: WrongPairs;
}): Promise<VariantEvaluation> {
  const { pairs, output, evaluate, documents } = args;
  const floor = pairsFileFloor(output, evaluate.min_score);
  // Sorted once here for the comparison and the slices (sortPairs returns a sorted list as it is).
  const allRun = sortPairs(pairs, documents, 'run');
  const sliceThresholds = [evaluate.threshold, ...(evaluate.thresholds ?? []), ...(args.extraThresholds ?? [])];
  const lowest = lowestMeasuredScore(evaluate, args.extraThresholds);
  const everyPair = output.decisions.kind === 'every-reported-pair';
  const reported = args.truth ? sortPairs(args.truth.pairs, documents, 'ground truth') : allRun;
  const scorer = args.truth?.scorer;
  const allTruth = scorer ? await withLookups(reported, allRun, { floor: lowest, allRun: everyPair, scorer, ...(args.signal ? { signal: args.signal } : {}) }) : reported;
  const { left: reference, right: run } = restrictToScores(allTruth, allRun, lowest, everyPair);
  sortedPartOf(run, allRun, documents);
  const cmp = compareWithTruth(reference, run, documents, {
    minScore: evaluate.min_score,
    threshold: evaluate.threshold,
    decisions: output.decisions.kind,
    scores: output.score.kind === 'resemblance' ? output.score.floor : output.score.why,
    ...(args.wrong && args.truth ? { wrong: args.wrong } : {}),
  });
  const warnings = [...cmp.warnings];
  const notApplicable: Record<string, string> = { ...cmp.notApplicable };
  const measures: Record<string, number | null> = {
    pairs: countFrom(pairs.score, floor),
    avg_error: cmp.avgError,
    correlation: cmp.correlation,
    precision_docs: cmp.precisionDocs,
    recall_docs: cmp.recallDocs,
    precision_pairs: cmp.precisionPairs,
    recall_pairs: cmp.recallPairs,
    f1_pairs: cmp.f1Pairs,
  };
  if (output.candidates) {
    const c = readCounter(args.counters, output.candidates);
    const ref = `${output.candidates.group}.${output.candidates.name}`;
    measures.candidate_pairs = c;
    if (c === null) warnings.push(`candidate_pairs: undefined, the counter ${ref} did not arrive`);
    measures.candidate_reduction_pct = candidateReduction(c, args.truth, warnings);
  }
  const slices = args.sizes
    ? evaluateSlices({
        truth: reference,
        run,
        sizes: args.sizes,
        groups: args.sizes.docs.length,
        thresholds: sliceThresholds,
        decisions: output.decisions.kind,
      })
    : undefined;
  return {
    measures,
    notApplicable,
    warnings,
    distribution: distributionOf(run, output, documents, evaluate.distribution, notApplicable),
    pairsCompared: cmp.pairsCompared,
    pairsFileFloor: floor,
    ...(slices ? { slices } : {}),
  };
}

/**
 * How many of `scores` are at or above `floor`. A loop of its own: in evaluateVariant, it made
 * V8 compile the whole of that function, with all it inlines, on the stack (OSR), 5 to 7 times a
 * quickstart run, at 10–40 ms each, as the variants' pairs changed its types.
 */
function countFrom(scores: Float64Array, floor: number): number {
  let n = 0;
  for (let i = 0; i < scores.length; i++) if ((scores[i] as number) >= floor) n++;
  return n;
}

function candidateReduction(c: number | null, truth: TruthSummary | undefined, warnings: string[]): number | null {
  if (c === null) return null;
  if (!truth) return 0;
  if (truth.candidates === null) {
    warnings.push('candidate_reduction_pct: undefined, the ground truth reports no candidate pairs');
    return null;
  }
  if (truth.candidates === 0) {
    warnings.push('candidate_reduction_pct: undefined, the ground truth has 0 candidate pairs');
    return null;
  }
  return 100 * (1 - c / truth.candidates);
}

/** The documents with a near-duplicate at each RR threshold, where the scores say so. */
function distributionOf(
  pairs: PairList,
  output: PlanOutput,
  documents: number,
  thresholds: readonly number[],
  notApplicable: Record<string, string>,
): (number | null)[] {
  if (output.score.kind !== 'resemblance') {
    notApplicable.distribution = output.score.why;
    return thresholds.map(() => null);
  }
  const { floor } = output.score;
  const all = nearDuplicateDistribution(pairs, documents, thresholds);
  const below = thresholds.filter((t) => t < floor);
  if (below.length > 0) notApplicable.distribution = `the detector reports pairs from RR ${floor} up: no share at ${below.join(', ')}`;
  return all.map((x, i) => ((thresholds[i] as number) < floor ? null : x));
}
