/**
 * Pairs or clusters produced elsewhere (a Spark job on a cluster, a notebook), as `bench score`
 * hands them to the adapter that reads such files (`AlgorithmAdapter.paramsForFile`): what the
 * file holds and what its scores mean, as the user declares them.
 */
export interface FileDeclaration {
  /** `pairs`: `doc_a,doc_b[,score]` lines; `clusters`: `doc,cluster` lines (document ids) */
  readonly format: 'pairs' | 'clusters';
  /** what a pairs line's third field means (plan.ts `ScoreMeaning`), or `none` */
  readonly score: 'resemblance' | 'other' | 'none';
  /** with `resemblance`: the score from which every pair found is in the file */
  readonly scoreFloor: number;
  readonly decisions: 'every-reported-pair' | 'score-at-threshold';
}
