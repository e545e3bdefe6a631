/**
 * The measure registry, in the spirit of ann-benchmarks' metric table: every column a variant
 * gets in metrics.csv, with its header, label, kind, the direction that is worse and how it is
 * shown. metrics.csv, the summary `bench run` prints, `bench check`'s quality keys, the run
 * report and the leaderboard all read it; an adapter adds its own measures after the general
 * ones (contract/adapter.ts), and a run writes the measures it has into run.json, so that the
 * results describe themselves.
 *
 * Kinds: `count` and `quality` are deterministic (the same config and seed give the same value
 * on every backend) and `bench check` compares them exactly; `timing` is compared
 * statistically; `memory`, `cost` and `info` are reported, not judged.
 */
import type { AdapterMeasure, AlgorithmAdapter } from '../../contract/index.ts';

export type MeasureKind = 'count' | 'quality' | 'timing' | 'memory' | 'cost' | 'info';

export interface MeasureInfo {
  /** Column of metrics.csv and key of `VariantRecord.measures`. */
  readonly key: string;
  readonly label: string;
  readonly kind: MeasureKind;
  /** Which direction is worse; null: neither (a count of documents). */
  readonly worse: 'lower' | 'higher' | null;
  /** A column of the summary `bench run` prints: its header and decimals. */
  readonly summary?: { readonly header: string; readonly digits: number };
  /** Where a chart should stop (recall cannot exceed 1). */
  readonly range?: { readonly min?: number; readonly max?: number };
  /** The adapter that contributes it; absent for the general measures. */
  readonly algorithm?: string;
  /** A general measure this one shows under the adapter's name. */
  readonly shows?: string;
}

const unit = { min: 0, max: 1 } as const;

/** The general measures, in metrics.csv order (docs/design.md §10.2). */
export const GENERAL_MEASURES: readonly MeasureInfo[] = [
  { key: 'docs', label: 'Documents', kind: 'info', worse: null },
  { key: 'pairs', label: 'Pairs reported', kind: 'count', worse: null, summary: { header: 'pairs', digits: 0 } },
  { key: 'avg_error', label: 'Average error', kind: 'quality', worse: 'higher', summary: { header: 'avg_err', digits: 4 }, range: { min: 0 } },
  { key: 'correlation', label: 'Correlation', kind: 'quality', worse: 'lower', summary: { header: 'corr', digits: 4 }, range: { max: 1 } },
  { key: 'precision_docs', label: 'Precision (documents)', kind: 'quality', worse: 'lower', summary: { header: 'P_docs', digits: 4 }, range: unit },
  { key: 'recall_docs', label: 'Recall (documents)', kind: 'quality', worse: 'lower', summary: { header: 'R_docs', digits: 4 }, range: unit },
  { key: 'precision_pairs', label: 'Precision (pairs)', kind: 'quality', worse: 'lower', summary: { header: 'P_pairs', digits: 4 }, range: unit },
  { key: 'recall_pairs', label: 'Recall (pairs)', kind: 'quality', worse: 'lower', summary: { header: 'R_pairs', digits: 4 }, range: unit },
  { key: 'f1_pairs', label: 'F1 on pairs', kind: 'quality', worse: 'lower', range: unit },
  { key: 'runtime_s', label: 'Runtime, s', kind: 'timing', worse: 'higher', summary: { header: 'time_s', digits: 2 }, range: { min: 0 } },
  { key: 'cpu_s', label: 'CPU, s', kind: 'timing', worse: 'higher', range: { min: 0 } },
  { key: 'peak_rss_mb', label: 'Peak memory of the process during the variant, MB', kind: 'memory', worse: 'higher', range: { min: 0 } },
  { key: 'cost_usd', label: 'Cost, USD', kind: 'cost', worse: 'higher', range: { min: 0 } },
  // Run alone: its own cost and that of the shared values (fingerprints, a corpus file) it reused from earlier variants.
  { key: 'standalone_runtime_s', label: 'Runtime run alone (shared features included), s', kind: 'timing', worse: 'higher', range: { min: 0 } },
  { key: 'standalone_cpu_s', label: 'CPU run alone (shared features included), s', kind: 'timing', worse: 'higher', range: { min: 0 } },
  { key: 'standalone_cost_usd', label: 'Cost run alone (shared features included), USD', kind: 'cost', worse: 'higher', range: { min: 0 } },
  { key: 'spill_mb', label: 'Temporary files written (sorted runs, shuffle spills), MB', kind: 'memory', worse: 'higher', range: { min: 0 } },
  { key: 'candidate_pairs', label: 'Candidate pairs', kind: 'count', worse: 'higher', range: { min: 0 } },
  // Against a span oracle (evaluate.oracle), for detectors that write spans: harness/evaluate/spans.ts.
  { key: 'span_precision', label: 'Span precision (sentence pairs)', kind: 'quality', worse: 'lower', range: unit },
  { key: 'span_recall', label: 'Span recall (sentence pairs)', kind: 'quality', worse: 'lower', range: unit },
  { key: 'span_f1', label: 'Span F1 (sentence pairs)', kind: 'quality', worse: 'lower', summary: { header: 'span_F1', digits: 4 }, range: unit },
  { key: 'span_doc_precision', label: 'Precision of document pairs with spans', kind: 'quality', worse: 'lower', range: unit },
  { key: 'span_doc_recall', label: 'Recall of document pairs with spans', kind: 'quality', worse: 'lower', range: unit },
  { key: 'span_doc_f1', label: 'F1 of document pairs with spans', kind: 'quality', worse: 'lower', range: unit },
  // Against the reply-parent pairs of a mail corpus (evaluate.replies): harness/evaluate/replies.ts.
  { key: 'planted_pairs', label: 'Planted pairs of the synthetic corpus (evaluate.planted)', kind: 'count', worse: null },
  { key: 'planted_recall', label: 'Share of the planted pairs decided near-duplicates', kind: 'quality', worse: 'lower', summary: { header: 'planted_R', digits: 4 }, range: unit },
  { key: 'reply_pairs', label: 'Reply-parent pairs (In-Reply-To) in the corpus', kind: 'count', worse: null },
  { key: 'reply_recall', label: 'Share of reply-parent pairs reported', kind: 'quality', worse: 'lower', summary: { header: 'reply_R', digits: 4 }, range: unit },
  { key: 'reply_span_recall', label: 'Share of reply-parent pairs joined by a span that is not boilerplate', kind: 'quality', worse: 'lower', summary: { header: 'reply_span_R', digits: 4 }, range: unit },
  { key: 'spans', label: 'Spans found', kind: 'count', worse: null },
  { key: 'span_reply_share', label: 'Share of spans joining a reply and its parent, not boilerplate', kind: 'quality', worse: null, range: unit },
  { key: 'span_footer_share', label: 'Share of spans that start with a list footer', kind: 'quality', worse: null, range: unit },
  { key: 'span_signature_share', label: 'Share of spans that start in a signature block', kind: 'quality', worse: null, range: unit },
  { key: 'span_repeated_share', label: 'Share of spans whose text recurs in more than k documents', kind: 'quality', worse: null, range: unit },
  { key: 'span_boilerplate_share', label: 'Share of spans that are footers, signatures or repeated text', kind: 'quality', worse: null, summary: { header: 'boiler', digits: 3 }, range: unit },
  // On human judgments (evaluate.judgments): harness/evaluate/judgments.ts, docs/design.md §8.9.
  { key: 'judged_pairs', label: 'Judged pairs with both documents in the corpus', kind: 'count', worse: null },
  { key: 'judged_precision', label: 'Precision on the judged pairs', kind: 'quality', worse: 'lower', summary: { header: 'P_judged', digits: 4 }, range: unit },
  { key: 'judged_recall', label: 'Recall on the judged pairs', kind: 'quality', worse: 'lower', summary: { header: 'R_judged', digits: 4 }, range: unit },
  { key: 'judged_f1', label: 'F1 on the judged pairs', kind: 'quality', worse: 'lower', range: unit },
  { key: 'judged_best_threshold', label: 'Score threshold of the best F1 on the judged pairs', kind: 'quality', worse: null, range: unit },
  { key: 'judged_best_f1', label: 'Best F1 on the judged pairs over the score thresholds', kind: 'quality', worse: 'lower', range: unit },
  // Of a detector's clusters (PlanOutput.clusters): harness/evaluate/clusters.ts, docs/design.md §8.8.
  { key: 'cluster_precision_pairs', label: 'Precision of the pairs inside clusters', kind: 'quality', worse: 'lower', summary: { header: 'P_clus', digits: 4 }, range: unit },
  { key: 'cluster_recall_pairs', label: 'Recall of the pairs inside clusters', kind: 'quality', worse: 'lower', summary: { header: 'R_clus', digits: 4 }, range: unit },
  { key: 'cluster_precision_docs', label: 'Precision of the clustered documents', kind: 'quality', worse: 'lower', range: unit },
  { key: 'cluster_recall_docs', label: 'Recall of the clustered documents', kind: 'quality', worse: 'lower', range: unit },
  { key: 'bcubed_precision', label: 'B-cubed precision of the clusters', kind: 'quality', worse: 'lower', summary: { header: 'B3_P', digits: 4 }, range: unit },
  { key: 'bcubed_recall', label: 'B-cubed recall of the clusters', kind: 'quality', worse: 'lower', summary: { header: 'B3_R', digits: 4 }, range: unit },
  { key: 'docs_removed', label: 'Documents removed (one kept a cluster)', kind: 'count', worse: null },
  { key: 'docs_to_remove', label: 'Documents the ground truth would remove (one kept a component)', kind: 'count', worse: null },
  { key: 'largest_cluster', label: 'Largest cluster, documents', kind: 'count', worse: null },
  { key: 'induced_pairs_below_threshold', label: 'Pairs inside clusters below the threshold in the ground truth', kind: 'count', worse: 'higher' },
  {
    key: 'candidate_reduction_pct',
    label: 'Reduction of candidate pairs against the ground truth, %',
    kind: 'quality',
    worse: 'lower',
    summary: { header: 'cand_red%', digits: 1 },
  },
];

/** Measures every metrics.csv has; the others appear when a variant of the run has them. */
const ALWAYS = new Set(['docs', 'pairs', 'avg_error', 'correlation', 'precision_docs', 'recall_docs', 'precision_pairs', 'recall_pairs', 'f1_pairs', 'runtime_s', 'cpu_s', 'peak_rss_mb', 'cost_usd']);

/** The order of the summary's columns; adapter measures go before the runtime. */
const SUMMARY_ORDER = ['pairs', 'avg_error', 'correlation', 'precision_pairs', 'recall_pairs', 'precision_docs', 'recall_docs', 'cluster_precision_pairs', 'cluster_recall_pairs', 'bcubed_precision', 'bcubed_recall', 'judged_precision', 'judged_recall', 'candidate_reduction_pct', 'planted_recall', 'span_f1', 'reply_recall', 'reply_span_recall', 'span_boilerplate_share'];

/** metrics.csv cells of timing, memory and cost columns are rounded for people; the others are written as computed. */
export const CSV_DECIMALS: Readonly<Record<string, number>> = { runtime_s: 3, cpu_s: 3, peak_rss_mb: 1, cost_usd: 8, spill_mb: 1, standalone_runtime_s: 3, standalone_cpu_s: 3, standalone_cost_usd: 8 };

export function generalMeasure(key: string): MeasureInfo {
  const m = GENERAL_MEASURES.find((x) => x.key === key);
  if (!m) throw new Error(`no general measure ${key}`);
  return m;
}

function adapterMeasureInfo(algorithm: string, m: AdapterMeasure): MeasureInfo {
  const shown = 'shows' in m ? generalMeasure(m.shows) : undefined;
  return {
    key: m.key,
    label: m.label,
    kind: shown?.kind ?? 'quality',
    worse: m.worse,
    ...(m.summary ? { summary: m.summary } : {}),
    ...(shown?.range ? { range: shown.range } : {}),
    algorithm,
    ...(shown ? { shows: shown.key } : {}),
  };
}

/**
 * The measures of a run, in column order: the general ones it has, then each adapter's own in
 * the order the adapters first appear. `present(key)` says whether some variant has a value
 * (or an empty cell) for an optional general measure; a general measure every variant shows
 * under its adapter's name is left out.
 */
export function runMeasures(
  variants: readonly { readonly adapter: Pick<AlgorithmAdapter, 'name' | 'measures'>; readonly has: (key: string) => boolean }[],
): MeasureInfo[] {
  const adapters: Pick<AlgorithmAdapter, 'name' | 'measures'>[] = [];
  for (const v of variants) if (!adapters.some((a) => a.name === v.adapter.name)) adapters.push(v.adapter);
  const shownBy = (a: Pick<AlgorithmAdapter, 'measures'>, key: string): boolean =>
    (a.measures ?? []).some((m) => 'shows' in m && m.shows === key);
  const general = GENERAL_MEASURES.filter(
    (m) => ALWAYS.has(m.key) || variants.some((v) => v.has(m.key) && !shownBy(v.adapter, m.key)),
  );
  const own = adapters.flatMap((a) => (a.measures ?? []).map((m) => adapterMeasureInfo(a.name, m)));
  return [...general, ...own];
}

/** The summary's columns among `measures`, in the summary's order. */
export function summaryMeasures(measures: readonly MeasureInfo[]): MeasureInfo[] {
  const withSummary = measures.filter((m) => m.summary);
  const general = SUMMARY_ORDER.flatMap((k) => withSummary.filter((m) => m.key === k && !m.algorithm));
  const own = withSummary.filter((m) => m.algorithm);
  const runtime = withSummary.filter((m) => m.key === 'runtime_s');
  return [...general, ...own, ...runtime];
}

/** The measures `bench check` compares exactly. */
export function exactMeasures(measures: readonly MeasureInfo[]): MeasureInfo[] {
  return measures.filter((m) => m.kind === 'count' || m.kind === 'quality');
}

/** Columns whose values may differ between two runs of the same config and seed. */
export const VARYING_COLUMNS: readonly string[] = GENERAL_MEASURES.filter((m) => m.kind === 'timing' || m.kind === 'memory' || m.kind === 'cost').map((m) => m.key);
