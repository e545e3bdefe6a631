/**
 * The measures the leaderboard ranks by, each with the direction that is worse (as in
 * ann-benchmarks' metric registry, whose `worst` orders its frontiers).
 */
import type { VariantRecord } from '../results/types.ts';

export interface LeaderboardMeasure {
  readonly key: string;
  readonly label: string;
  /** how a chart title names it: "F1 on pairs against <noun>" */
  readonly noun: string;
  /** which direction is worse: 'lower' for F1 and recall, 'higher' for an error */
  readonly worse: 'lower' | 'higher';
  readonly value: (v: VariantRecord) => number | null;
}

export const QUALITY_MEASURES: readonly LeaderboardMeasure[] = [
  { key: 'f1_pairs', label: 'F1 on pairs', noun: 'F1 on pairs', worse: 'lower', value: (v) => v.metrics.f1_pairs },
  { key: 'recall_pairs', label: "Recall on pairs at the experiment's threshold", noun: 'recall', worse: 'lower', value: (v) => v.metrics.recall_pairs },
  { key: 'avg_error', label: 'Average error of the RR', noun: 'average error', worse: 'higher', value: (v) => v.metrics.avg_error },
];

export const COST_MEASURES: readonly LeaderboardMeasure[] = [
  { key: 'runtime_s', label: 'Runtime, s', noun: 'runtime', worse: 'higher', value: (v) => v.runtime_s },
  { key: 'cost_usd', label: 'Cost, USD', noun: 'cost', worse: 'higher', value: (v) => v.cost_usd },
];
