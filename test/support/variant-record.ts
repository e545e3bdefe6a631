/** A minimal run.json variant record for the results tests (a test helper, not a test file). */
import type { VariantRecord } from '../../harness/results/types.ts';

export function variantRecord(name: string, over: Partial<VariantRecord> = {}): VariantRecord {
  return {
    name,
    algorithm: 'x',
    ground_truth: false,
    params: {},
    swept: {},
    score: { kind: 'resemblance', floor: 0 },
    decisions: { kind: 'score-at-threshold' },
    measures: {},
    not_applicable: {},
    pairs_compared: 0,
    distribution: [],
    counters: {},
    files: [],
    warnings: [],
    memory: 'per-variant',
    ...over,
  };
}
