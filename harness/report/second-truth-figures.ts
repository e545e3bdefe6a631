/**
 * The report's figures against the truths beside the ground truth: human judgments
 * (evaluate.judgments: each variant's precision-recall curve on the judged pairs, and how the
 * ground truth itself agrees with the judges) and decisions read as clusters (evaluate.clusters:
 * what transitive closure does to precision, B-cubed, the largest cluster). Pure: the run's
 * records in, chart specs out.
 */
import { human } from '../format.ts';
import type { CurvePoint } from '../evaluate/judgments.ts';
import type { RunRecord, VariantRecord } from '../results/types.ts';
import type { ChartSpec } from './charts.ts';

export interface SecondTruthSection {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  readonly charts: readonly ChartSpec[];
}

const unit = { scale: 'linear', min: 0, max: 1 } as const;
const m = (v: VariantRecord, key: string): number | null => v.measures[key] ?? null;
const shown = (x: number | null): string => (x === null ? 'undefined' : human(x));

/** The ground truth first: the judges' view of the measure every other variant is scored by. */
function truthFirst(variants: readonly VariantRecord[]): VariantRecord[] {
  return [...variants.filter((v) => v.ground_truth), ...variants.filter((v) => !v.ground_truth)];
}

/** `curves`: each variant's precision-recall curve on the judged pairs (judgments/<variant>.csv), by variant name. */
export function judgmentsSection(run: RunRecord, curves: ReadonlyMap<string, readonly CurvePoint[]>, nextId: () => string): SecondTruthSection | undefined {
  const judged = truthFirst(run.variants.filter((v) => m(v, 'judged_pairs') !== null));
  if (judged.length === 0) return undefined;
  const charts: ChartSpec[] = [
    {
      id: nextId(),
      title: 'Precision and recall on the judged pairs, each variant deciding at its own threshold',
      type: 'bars',
      horizontal: false,
      labels: judged.map((v) => v.name),
      series: (['judged_precision', 'judged_recall', 'judged_f1', 'judged_best_f1'] as const).map((key) => ({
        kind: 'values' as const,
        label: key.slice('judged_'.length).replace('_', ' '),
        values: judged.map((v) => m(v, key)),
      })),
      x: { title: 'variant', scale: 'category' },
      y: { title: 'share of judged pairs', ...unit },
    },
    {
      id: nextId(),
      title: 'Precision against recall on the judged pairs, over score thresholds',
      type: 'xy',
      series: judged
        .filter((v) => curves.has(v.name))
        .map((v) => ({
          kind: 'points' as const,
          label: v.name,
          line: true,
          ...(v.ground_truth ? { reference: true } : {}),
          points: (curves.get(v.name) ?? []).flatMap((p) => (p.recall === null ? [] : [{ x: p.recall, y: p.precision }])),
        })),
      x: { title: 'recall', ...unit },
      y: { title: 'precision', ...unit },
    },
  ];
  const truth = judged.find((v) => v.ground_truth);
  const first = judged[0] as VariantRecord;
  const agreement = truth
    ? ` The ground truth (RR ≥ ${run.evaluate.threshold}) agrees with the judges at precision ${shown(m(truth, 'judged_precision'))} and recall ${shown(m(truth, 'judged_recall'))}; its best F1 on them, ${shown(m(truth, 'judged_best_f1'))}, is at RR ≥ ${shown(m(truth, 'judged_best_threshold'))}.`
    : '';
  return {
    id: 'judgments',
    title: 'Human judgments',
    note: `${shown(m(first, 'judged_pairs'))} judged pairs in the corpus (evaluate.judgments); only judged pairs count.${agreement} The curves are in judgments/<variant>.csv.`,
    charts,
  };
}

export function clustersSection(run: RunRecord, nextId: () => string): SecondTruthSection | undefined {
  const clustered = truthFirst(run.variants.filter((v) => m(v, 'bcubed_precision') !== null));
  if (clustered.length === 0) return undefined;
  const labels = clustered.map((v) => v.name);
  const charts: ChartSpec[] = [
    {
      id: nextId(),
      title: 'Decisions read as clusters: induced pairs and B-cubed against the ground truth',
      type: 'bars',
      horizontal: false,
      labels,
      series: (
        [
          ['precision_pairs', 'pairs precision (decided pairs)'],
          ['cluster_precision_pairs', 'induced pairs precision'],
          ['cluster_recall_pairs', 'induced pairs recall'],
          ['bcubed_precision', 'B-cubed precision'],
          ['bcubed_recall', 'B-cubed recall'],
        ] as const
      ).map(([key, label]) => ({ kind: 'values' as const, label, values: clustered.map((v) => m(v, key)) })),
      x: { title: 'variant', scale: 'category' },
      y: { title: 'share', ...unit },
    },
    {
      id: nextId(),
      title: 'The largest cluster, and documents removed against those the ground truth removes',
      type: 'bars',
      horizontal: false,
      labels,
      series: (
        [
          ['largest_cluster', 'documents in the largest cluster'],
          ['docs_removed', 'documents removed'],
          ['docs_to_remove', 'removed by the ground truth'],
        ] as const
      ).map(([key, label]) => ({ kind: 'values' as const, label, values: clustered.map((v) => m(v, key)) })),
      x: { title: 'variant', scale: 'category' },
      y: { title: 'documents', scale: 'linear', min: 0 },
    },
  ];
  return {
    id: 'clusters',
    title: 'Clusters',
    note: `The clusters a variant wrote (its plan's clusters table), one document kept per cluster, as a dedup pipeline does. An induced pair is any two documents of one cluster; those below RR ${run.evaluate.threshold} in the ground truth are what transitive closure added (induced_pairs_below_threshold in metrics.csv). B-cubed is against the ground truth's own components.`,
    charts,
  };
}
