/**
 * The algorithm adapter (docs/design.md §5.1): a detector as the harness knows it.
 * Each folder of `algorithms/` exports one from its `index.ts` and its plan function, without
 * the parameter schema, from `plan.ts` (the job script Hadoop starts for every task loads only
 * that). `algorithms/detectors.ts` lists the folders: adding a detector is its folder and one
 * line there.
 */
import type { z } from 'zod';
import type { Counters } from './counters.ts';
import type { Calibration, CalibrationContext, DerivedRun } from './derived.ts';
import type { AdapterExplain } from './explain.ts';
import type { Plan, PlanContext } from './plan.ts';
import type { FileDeclaration } from './scored-file.ts';

/** The general measures an adapter may show under a name of its own (`AdapterMeasure.shows`). */
export type GeneralCandidateMeasure = 'candidate_pairs' | 'candidate_reduction_pct';

/** What an adapter's measure is computed from. */
export interface MeasuredVariant {
  readonly groundTruth: boolean;
  readonly counters: Counters;
  /** the plan's `candidates` counter, null when it is missing */
  readonly candidates: number | null;
}

interface MeasureBase {
  /** Column of metrics.csv, key in run.json and in baselines. */
  readonly key: string;
  /** How the report and the leaderboard name it. */
  readonly label: string;
  /** Which direction is worse, for `bench check` notes and chart frontiers; null: neither. */
  readonly worse: 'lower' | 'higher' | null;
  /** A column of the table `bench run` prints. */
  readonly summary?: { readonly header: string; readonly digits: number };
}

/**
 * A measure an adapter adds to metrics.csv after the general ones: either a general measure
 * under the detector's own name (Broder shows `candidate_pairs` as Figure 3.9's
 * `mr1_output_pairs`; where every variant of a run shows it so, the general column is left
 * out), or a value of its own computed from the run's counters.
 */
export type AdapterMeasure =
  | (MeasureBase & { readonly shows: GeneralCandidateMeasure })
  | (MeasureBase & { readonly value: (self: MeasuredVariant, truth: MeasuredVariant) => number | null });

/**
 * A figure an adapter adds to the run report, drawn over the variants of that adapter:
 * `bars-per-variant` is one bar per variant (the ground truth left out) of one of its measures.
 */
export interface AdapterFigure {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  readonly chart:
    | {
        readonly kind: 'bars-per-variant';
        readonly title: string;
        readonly measure: string;
        /** the value axis' title */
        readonly axis: string;
        /** the series' name */
        readonly legend: string;
      }
    | {
        /**
         * `lines-per-table` is one chart per calibration table of the adapter's variants
         * (contract/derived.ts, `<folder>/<variant>.csv`): `x` against each of `series`.
         */
        readonly kind: 'lines-per-table';
        readonly title: string;
        readonly folder: string;
        readonly x: string;
        readonly series: readonly string[];
        /** the axes' titles */
        readonly xAxis: string;
        readonly axis: string;
      };
}

export interface AlgorithmAdapter<S extends z.ZodType = z.ZodType> {
  /** The name configs use (`algorithm: broder`); equal to the folder's name. */
  readonly name: string;
  /** One line for `bench list`. */
  readonly description: string;
  /** The paper(s) it implements, for the README and reports. */
  readonly citation: string;
  /** Parameters with defaults and `.describe()` texts (what `bench list` prints). */
  readonly params: S;
  plan(params: z.output<S>, ctx: PlanContext): Plan;
  /**
   * The `meta` fields the documents must carry for these parameters (simhash's metadata
   * features and tagged text): a run that needs one its corpus format never carries is a
   * config error. Absent: none.
   */
  metaFields?(params: z.output<S>): readonly string[];
  /**
   * Where in the parameters a file is named (`['document_frequencies', 'path']`): the harness
   * resolves a relative path there against the config file's directory before validating, as
   * it does the corpus path. Absent: none.
   */
  readonly fileParams?: readonly (readonly string[])[];
  readonly measures?: readonly AdapterMeasure[];
  readonly figures?: readonly AdapterFigure[];
  /**
   * The runs a variant of these parameters averages (contract/derived.ts), or undefined when the
   * parameters are a plan of their own. Such parameters need not be plannable themselves.
   */
  trials?(params: z.output<S>): readonly DerivedRun[] | undefined;
  /**
   * The calibration that chooses the parameters of a variant of these parameters, or undefined
   * when they are a plan of their own (contract/derived.ts).
   */
  calibration?(params: z.output<S>, ctx: CalibrationContext): Calibration | undefined;
  /** Why it decided what it did about a pair (contract/explain.ts, `bench explain`). Absent: the harness shows only what is common to all. */
  readonly explain?: AdapterExplain<z.output<S>>;
  /**
   * The parameters (before validation) of a variant that reads a file of pairs or clusters
   * produced elsewhere (`bench score FILE`, an absolute path): set by the one adapter that reads
   * such files, which the harness finds by this method, never by name.
   */
  paramsForFile?(file: string, declared: FileDeclaration): unknown;
  /**
   * Each run of this adapter in a config is a method of its own (a command: datasketch,
   * text-dedup, …), not a setting of one method: the leaderboard draws a series per run name
   * (`runs[].name`, the variant's name before its first `/`) instead of one for the adapter.
   * Absent: one series for all its variants.
   */
  readonly seriesPerRun?: boolean;
}

/** What the job script needs of a detector: its plan function, without the schema. */
export type PlanFunction = (params: never, ctx: PlanContext) => Plan;
