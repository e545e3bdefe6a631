/**
 * The results contract (DESIGN.md "Results"): what `bench run` writes into
 * `results/<experiment>/<run-id>/` and what reports, `bench check` and `bench compare` read.
 *
 *   run.json                 RunRecord below
 *   metrics.csv              one row a variant, ground truth first (columns: METRICS_COLUMNS, with the swept
 *                            parameters inserted after `algorithm` and the variant's counters appended)
 *   distribution.csv         `rr_threshold` then one column a variant (in metrics.csv order): the percentage of
 *                            documents that have a near-duplicate at or above that RR (Tables 3.1 and 3.3)
 *   pairs/<variant>.csv.gz   `doc_a,doc_b,score`, every pair with score >= evaluate.min_score, sorted by
 *                            doc_a then doc_b (byte order); variant names contain `/`, which makes folders
 *   report.html              the self-contained report of the run
 *
 * Empty CSV cells mean "undefined" (an empty denominator); run.json says why in `warnings`.
 * Timing and cost columns are the only ones that differ between two runs of the same config.
 */
import type { Counters } from '../../algorithms/types.ts';
import type { Skip } from '../corpus/types.ts';

export const RUN_SCHEMA_VERSION = 1;

/** Fixed leading columns of metrics.csv; swept parameter columns go between `algorithm` and `docs`. */
export const METRICS_LEAD = ['experiment', 'variant', 'algorithm'] as const;
export const METRICS_COLUMNS = [
  'docs',
  'pairs',
  'avg_error',
  'correlation',
  'precision_docs',
  'recall_docs',
  'precision_pairs',
  'recall_pairs',
  'f1_pairs',
  'runtime_s',
  'cpu_s',
  'peak_rss_mb',
  'cost_usd',
  // DESIGN.md's columns end at cost_usd; Figure 3.9's pair counts follow, before the counters.
  'mr1_output_pairs',
  'mr1_reduction_pct',
] as const;
/** Columns whose values may differ between two runs of the same config and seed. */
export const TIMING_COLUMNS = ['runtime_s', 'cpu_s', 'peak_rss_mb', 'cost_usd'] as const;

export interface VariantRecord {
  readonly name: string;
  readonly algorithm: string;
  readonly ground_truth: boolean;
  readonly params: unknown;
  /** dotted path within params → swept value (empty for the ground truth and unswept runs) */
  readonly swept: Record<string, string | number | boolean>;
  /** pairs reported by the variant with score >= min_score */
  readonly pairs: number;
  readonly metrics: {
    readonly avg_error: number | null;
    readonly correlation: number | null;
    readonly precision_docs: number | null;
    readonly recall_docs: number | null;
    readonly precision_pairs: number | null;
    readonly recall_pairs: number | null;
    readonly f1_pairs: number | null;
    readonly pairs_compared: number;
  };
  /** output pairs of the plan's first pair-producing job (Figure 3.9) and their reduction against the ground truth, % */
  readonly mr1_output_pairs: number | null;
  readonly mr1_reduction_pct: number | null;
  /** percentage of documents with a near-duplicate at each evaluate.distribution threshold, same order */
  readonly distribution: readonly number[];
  readonly runtime_s: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
  readonly cost_usd: number;
  readonly counters: Counters;
  readonly warnings: readonly string[];
  /** backend facts (EMR cluster id, step timeline, …) */
  readonly backend_extra?: Record<string, unknown>;
}

export interface RunRecord {
  readonly schema_version: typeof RUN_SCHEMA_VERSION;
  readonly status: 'completed';
  readonly experiment: string;
  readonly description?: string;
  readonly run_id: string;
  readonly config_file: string;
  readonly config_hash: string;
  readonly config: unknown;
  readonly started_at: string;
  readonly finished_at: string;
  readonly git: { readonly commit: string | null; readonly dirty: boolean | null };
  readonly environment: {
    readonly node: string;
    readonly platform: string;
    readonly arch: string;
    readonly cpu_model: string;
    readonly cpus: number;
    readonly memory_gb: number;
  };
  readonly backend: Record<string, unknown> & { readonly kind: string };
  readonly corpus: {
    readonly format: string;
    readonly path: string | null;
    readonly documents: number;
    readonly read: number;
    readonly skipped: Record<string, number>;
    readonly recovered: Record<string, number>;
    /** the first skips, with file and offset */
    readonly skips: readonly Skip[];
    readonly read_s: number;
    /** with `corpus.subset`: documents it selects, documents read but not selected, selected but not found */
    readonly subset?: { readonly selected: number; readonly outside: number; readonly missing: number };
  };
  readonly evaluate: { readonly threshold: number; readonly min_score: number; readonly distribution: readonly number[] };
  readonly variants: readonly VariantRecord[];
  readonly warnings: readonly string[];
  /** extra tables written beside metrics.csv (TREC studies), file name → one-line description */
  readonly tables: Record<string, string>;
  readonly totals: { readonly runtime_s: number; readonly cpu_s: number; readonly cost_usd: number; readonly peak_rss_mb: number };
}
