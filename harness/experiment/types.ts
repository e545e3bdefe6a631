/**
 * A loaded experiment: the config validated, `${VAR}`s expanded, defaults applied and runs
 * expanded into variants. This is all the runner needs to know about the YAML.
 */
import type { z } from 'zod';
import type { BackendConfig } from '../mapreduce/config.ts';
import type { corpusSchema, evaluateSchema, studiesSchema } from './schema.ts';

// The backend section is the backends' own schema (mapreduce/config.ts); named here too, as the
// experiment holds it.
export type { BackendConfig };

export type SweepValue = string | number | boolean;

export interface Variant {
  /** `ground-truth`, `broder`, `broder/sct=70`, `sct/mod=64,size=5`, ... unique within the experiment. */
  readonly name: string;
  readonly algorithm: string;
  /** The adapter's schema output: defaults applied. */
  readonly params: unknown;
  /** Dotted path within params → this variant's value, one entry per swept field. */
  readonly swept: Readonly<Record<string, SweepValue>>;
  readonly groundTruth: boolean;
}

/** The corpus section; `path`, `subset.qrels` and `subset.runs` are absolute and exist. A spamassassin corpus without `path` is the bundled npm package. */
export type CorpusConfig = z.output<typeof corpusSchema>;

export type EvaluateConfig = z.output<typeof evaluateSchema>;

/** The `studies` section (TREC studies, `harness/evaluate/studies`); run paths absolute once loaded. */
export type StudiesConfig = z.output<typeof studiesSchema>;

export interface Experiment {
  /** Absolute path of the config file. */
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly seed: number;
  /** sha256 hex of the canonical JSON (sorted keys) of `resolved`. */
  readonly hash: string;
  /**
   * The whole config after `${VAR}` expansion and defaults, as plain JSON: paths absolute,
   * params with their defaults and sweeps as lists. Machine-dependent defaults (a local
   * backend's `workers`) are left out, so that the hash names the experiment, not the host.
   */
  readonly resolved: unknown;
  readonly corpus: CorpusConfig;
  readonly groundTruth: Variant;
  /** The runs expanded, in config order; the ground truth is not among them. */
  readonly variants: readonly Variant[];
  readonly evaluate: EvaluateConfig;
  readonly backend: BackendConfig;
  /** `backends:` of the config: the other backends `bench run --backend KIND` may choose. */
  readonly alternativeBackends: readonly BackendConfig[];
  /** Absent when the config has no `studies` section. */
  readonly studies?: StudiesConfig;
}
