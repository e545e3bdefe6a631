/**
 * The results contract (docs/design.md §10): what `bench run` writes into
 * `results/<experiment>/<run-id>/` and what reports, `bench check` and `bench compare` read.
 *
 *   run.json                 RunRecord below
 *   metrics.csv              one row a variant, ground truth first: METRICS_LEAD, the swept parameters, the
 *                            run's measures (RunRecord.measures, from results/measures.ts), the counters
 *                            (`group.name`, sorted by group then name; empty where the variant lacks the group)
 *   distribution.csv         `rr_threshold` then one column a variant (in metrics.csv order): the percentage of
 *                            documents that have a near-duplicate at or above that RR (Tables 3.1 and 3.3)
 *   pairs/<variant>.csv.gz   `doc_a,doc_b,score`, sorted by doc_a then doc_b (byte order): every pair with
 *                            score >= evaluate.min_score when scores estimate the RR and decisions are taken at
 *                            evaluate.threshold, else (every reported pair a decision, or another score) every pair reported;
 *                            variant names contain `/`, which makes folders
 *   spans/<variant>.csv.gz   the spans of a detector that locates shared text (results/spans-file.ts)
 *   <table>/<variant>.csv.gz per-document tables a plan writes (simhash signatures, LSH clusters)
 *   kept/<variant>/<name>    files a detector's kernel kept as they are, for its explanations (a command's own output)
 *   errors/<variant>.jsonl   a seeded sample of the variant's false positives and negatives against the ground
 *                            truth, the most wrong first, each explained (evaluate/explain/errors.ts)
 *   report.html              the self-contained report of the run
 *
 * Empty CSV cells mean "undefined" (an empty denominator); run.json says why in `warnings`.
 * Timing and cost columns are the only ones that differ between two runs of the same config.
 */
import type { AdapterFigure, CalibrationTable, Counters, DecisionRule, ScoreMeaning } from '../../contract/index.ts';
import type { Skip } from '../corpus/types.ts';
import type { FileSetFingerprint } from '../corpus/fingerprints.ts';
import type { PlantedRate } from '../evaluate/planted.ts';
import type { FileEntry } from './manifest.ts';
import type { MeasureInfo } from './measures.ts';
import type { SizeGroup } from '../evaluate/size-groups.ts';
import type { VariantSlices } from '../evaluate/slices.ts';

/** What a run read (experiment/inputs.ts), kept in run.json: a complete run is current only while its inputs are the same. */
export interface InputsFingerprint {
  readonly method: 'stat' | 'content';
  readonly package_version: string;
  readonly config_hash: string;
  readonly files: readonly FileSetFingerprint[];
  /** SHA-256 of all of the above: equal digests, same inputs */
  readonly digest: string;
}

export const RUN_SCHEMA_VERSION = 2;

/** Fixed leading columns of metrics.csv; swept parameter columns go between `algorithm` and the measures. */
export const METRICS_LEAD = ['experiment', 'variant', 'algorithm'] as const;

/** A figure an adapter adds to the report, with the adapter's name (contract/adapter.ts). */
export interface FigureRecord extends AdapterFigure {
  readonly algorithm: string;
}

/** A file of the run folder a variant wrote, relative to the folder. */
export interface OutputFileRecord {
  readonly file: string;
  readonly rows: number;
  readonly description: string;
}

export interface VariantRecord {
  readonly name: string;
  readonly algorithm: string;
  /** the run it belongs to (its name before the first `/`), when its adapter's runs are methods of their own (`seriesPerRun`): the leaderboard's series */
  readonly series?: string;
  readonly ground_truth: boolean;
  readonly params: unknown;
  /** dotted path within params → swept value (empty for the ground truth and unswept runs) */
  readonly swept: Record<string, string | number | boolean>;
  /** what the adapter declared its scores and decisions to be (contract/plan.ts) */
  readonly score: ScoreMeaning;
  readonly decisions: DecisionRule;
  /**
   * A clustered variant: what its clusters were closed from (contract PlanOutput.clusterLinks),
   * for `bench explain`'s chain: `decided pairs` (its pairs file) or `induced pairs` (every pair
   * inside a cluster: the links before closure are not known). Absent: no clusters.
   */
  readonly cluster_links?: 'decided pairs' | 'induced pairs';
  /** every measure of the run's `measures` this variant has: key → value, null for an empty cell */
  readonly measures: Record<string, number | null>;
  /** why a measure cell of this variant is empty when that is by design, not an empty denominator */
  readonly not_applicable: Record<string, string>;
  /** |P|: the pairs the average error and correlation are computed over */
  readonly pairs_compared: number;
  /** percentage of documents with a near-duplicate at each evaluate.distribution threshold, same order; null where the scores do not say */
  readonly distribution: readonly (number | null)[];
  readonly counters: Counters;
  /** counters (`group.name`) the variant's run left out on purpose: empty cells, not 0 (contract KernelResult.uncounted) */
  readonly uncounted?: readonly string[];
  /** pairs, spans and tables written for this variant */
  readonly files: readonly OutputFileRecord[];
  /** precision and recall over the whole collection and per size group, at each threshold (size-groups.csv, thresholds.csv) */
  readonly slices?: VariantSlices;
  /** `evaluate.planted`: the variant's recall of the planted pairs per edit rate (planted.csv) */
  readonly planted?: readonly PlantedRate[];
  /** a trial or a calibration run of another variant (contract/derived.ts), in the rows after it */
  readonly part_of?: { readonly variant: string; readonly role: 'trial' | 'calibration' };
  /**
   * A variant averaged over its trials: their names, and each measure's spread over them. Its
   * measures are the trials' means (runtime, CPU and cost their sums, memory their maximum).
   */
  readonly trials?: { readonly runs: readonly string[]; readonly spread: Readonly<Record<string, Spread>> };
  /** A variant whose parameters (`params`) a calibration chose from the parameters given. */
  readonly calibration?: {
    readonly params_given: unknown;
    readonly runs: readonly string[];
    readonly summary: string;
    readonly details: unknown;
    readonly table?: CalibrationTable;
  };
  readonly warnings: readonly string[];
  /** how `peak_rss_mb` was measured: from the variant's start (Linux), or the process's running maximum */
  readonly memory: 'per-variant' | 'process-maximum';
  /** backend facts (EMR cluster id, step timeline, …) */
  readonly backend_extra?: Record<string, unknown>;
}

/** A measure over a variant's trials: how many defined it, their mean, standard deviation (over all of them, not a sample) and range. */
export interface Spread {
  readonly n: number;
  readonly mean: number | null;
  readonly sd: number | null;
  readonly min: number | null;
  readonly max: number | null;
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
    /** UTF-8 bytes of the documents' texts as the detectors see them (absent in runs before it was recorded) */
    readonly text_bytes?: number;
    readonly read: number;
    readonly skipped: Record<string, number>;
    readonly recovered: Record<string, number>;
    /** the first skips, with file and offset */
    readonly skips: readonly Skip[];
    readonly read_s: number;
    /** where the run held the texts: in memory, or beyond `texts_mb` in a file of its work folder (absent in runs before it was recorded) */
    readonly texts?: 'memory' | 'file';
    /** the corpus cache (corpus/cache.ts): `hit` replayed the reader's output, `written` stored it, `not-written` could not, `off` not asked */
    readonly cache?: 'hit' | 'written' | 'not-written' | 'off';
    /** with `corpus.subset`: documents it selects, documents read but not selected, selected but not found */
    readonly subset?: { readonly selected: number; readonly outside: number; readonly missing: number };
    /** with `corpus.exact_duplicates: remove`: groups of identical texts and the documents removed (exact-duplicates.csv) */
    readonly exact_duplicates?: { readonly groups: number; readonly removed: number };
  };
  readonly evaluate: {
    readonly threshold: number;
    readonly min_score: number;
    readonly distribution: readonly number[];
    readonly thresholds?: readonly number[];
    readonly size_groups?: readonly SizeGroup[];
  };
  /** the columns of metrics.csv after the swept parameters, before the counters (results/measures.ts) */
  readonly measures: readonly MeasureInfo[];
  /** figures the run's adapters add to its report */
  readonly figures: readonly FigureRecord[];
  readonly variants: readonly VariantRecord[];
  readonly warnings: readonly string[];
  /** extra tables written beside metrics.csv (TREC studies), file name → one-line description */
  readonly tables: Record<string, string>;
  /** what the run read, fingerprinted (experiment/inputs.ts): a rerun is `already complete` only on the same inputs */
  readonly inputs: InputsFingerprint;
  /** every file of the run folder but run.json and report.html, with its size and SHA-256 */
  readonly files: readonly FileEntry[];
  /** variants taken from an interrupted run's checkpoint (`--resume`) */
  readonly resumed: readonly string[];
  /**
   * Wall-clock seconds of each phase and of the whole run (reading the corpus, the variants, the
   * TREC studies, writing), CPU seconds of the whole run (every thread and child process), its
   * cost (the variants' cost plus the rest of the CPU at the local price), and the largest
   * variant peak of memory.
   */
  readonly totals: {
    readonly read_s: number;
    readonly variants_s: number;
    readonly studies_s: number;
    readonly write_s: number;
    readonly total_s: number;
    readonly runtime_s: number;
    readonly cpu_s: number;
    readonly cost_usd: number;
    readonly peak_rss_mb: number;
  };
}
