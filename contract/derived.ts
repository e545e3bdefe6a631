/**
 * Variants that are more than one run (contract/adapter.ts, `trials` and `calibration`):
 *
 * - trials: a variant that is the average of several runs, each a plan of its own (Ye et al.
 *   average hash sampling over all m residues, section 4.4). The harness runs every trial as a
 *   row of its own and reports the variant as their mean, with the spread per measure.
 * - calibration: a variant whose parameters are chosen from how calibration runs fare against
 *   the ground truth, per document-size group (Ye et al. section 6: the largest modulus per
 *   group that meets a precision target). The harness runs the calibration runs, evaluates each
 *   per size group at the calibration's threshold, asks the adapter to choose, and runs the
 *   variant with the chosen parameters, which run.json records for reuse.
 *
 * Both are declared by the adapter from validated parameters, so the harness needs to know
 * nothing of what the runs are: it plans each with the adapter, as any variant.
 */
import type { Counters } from './counters.ts';

/** One run a variant expands into. */
export interface DerivedRun {
  /** Names the run after the variant's name and a slash: `residue=3`, `calibration/m=4`. */
  readonly label: string;
  /** Its parameters: the output of the adapter's own schema, as a variant's are. */
  readonly params: unknown;
  /** Dotted parameter path → value: the metrics.csv columns that set the run apart. */
  readonly swept: Readonly<Record<string, string | number | boolean>>;
}

/** A size group of the evaluation (`evaluate.size_groups`): documents of min_words to max_words words (null: no bound). */
export interface SizeGroupBounds {
  readonly min_words: number;
  readonly max_words: number | null;
}

export interface CalibrationContext {
  /** The groups calibration runs are evaluated per, in order; words counted as algorithms/text/word-count.ts does. */
  readonly sizeGroups: readonly SizeGroupBounds[];
}

/** How a calibration run fares in one size group at the calibration's threshold (harness/evaluate/slices.ts). */
export interface GroupOutcome {
  /** ground-truth pairs at or above the threshold whose smaller document is in the group */
  readonly dupPairs: number;
  /** the run's near-duplicate pairs in the group */
  readonly resPairs: number;
  readonly bothPairs: number;
  /** bothPairs / resPairs, null when resPairs = 0 */
  readonly precision: number | null;
  /** bothPairs / dupPairs, null when dupPairs = 0 */
  readonly recall: number | null;
}

export interface CalibrationResult {
  readonly label: string;
  /** the run's counters */
  readonly counters: Counters;
  /** one entry per size group, in `sizeGroups` order */
  readonly groups: readonly GroupOutcome[];
}

/** A table a calibration writes beside metrics.csv, as `<folder>/<variant>.csv`. */
export interface CalibrationTable {
  readonly folder: string;
  readonly description: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
}

export interface CalibrationChoice {
  /** The parameters the variant runs with (the output of the adapter's schema); run.json records them for reuse. */
  readonly params: unknown;
  /** One line: what was chosen and why. */
  readonly summary: string;
  /** What run.json records of the choice (plain JSON). */
  readonly details: unknown;
  readonly table?: CalibrationTable;
}

export interface Calibration {
  /** The runs to make first. */
  readonly runs: readonly DerivedRun[];
  /** The similarity threshold the runs are evaluated at. */
  readonly threshold: number;
  /** Chooses the parameters from the runs' results, in `runs` order. */
  choose(results: readonly CalibrationResult[]): CalibrationChoice;
}
