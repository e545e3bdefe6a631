/**
 * The measures the leaderboard ranks by (keys of the measure registry, results/measures.ts),
 * each with the direction that is worse, as in ann-benchmarks' metric registry whose `worst`
 * orders its frontiers.
 */
import { generalMeasure } from '../results/measures.ts';
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

function fromRegistry(key: string, label: string, noun: string, fallback?: string): LeaderboardMeasure {
  const worse = generalMeasure(key).worse;
  if (worse === null) throw new Error(`measure ${key} has no direction to rank by`);
  return { key, label, noun, worse, value: (v) => v.measures[key] ?? (fallback === undefined ? null : (v.measures[fallback] ?? null)) };
}

export const QUALITY_MEASURES: readonly LeaderboardMeasure[] = [
  fromRegistry('f1_pairs', 'F1 on pairs', 'F1 on pairs'),
  fromRegistry('recall_pairs', "Recall on pairs at the experiment's threshold", 'recall'),
  fromRegistry('avg_error', 'Average error of the RR', 'average error'),
];

/**
 * Costs as if each variant ran alone (standalone: the shared features it reused from earlier
 * variants of its run included), so that a chart ranks what a variant costs, not what it
 * reused; a run written before standalone costs were recorded shows its own.
 */
export const COST_MEASURES: readonly LeaderboardMeasure[] = [
  fromRegistry('standalone_runtime_s', 'Runtime run alone (shared features included), s', 'runtime run alone', 'runtime_s'),
  fromRegistry('standalone_cost_usd', 'Cost run alone (shared features included), USD', 'cost run alone', 'cost_usd'),
];
