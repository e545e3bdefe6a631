/**
 * What every backend (local, streaming, hadoop, spark, emr) offers the runner: run one variant's plan over a
 * document set and give back pairs by document index, counters, and measured time and cost.
 * Every backend must give the same pairs and scores for the same input.
 */
import type { CounterRef, Counters, DocumentSet, PairScorer, Plan, ProcessTreeUsage, StoreCodec } from '../../contract/index.ts';
import type { PlanOutputs } from './outputs.ts';

export interface VariantJob {
  /** Stable variant name, e.g. `broder/sct=70`. */
  readonly variant: string;
  readonly algorithm: string;
  /** Validated parameters (as the adapter's schema outputs them). */
  readonly params: unknown;
  /** The plan's context (`PlanContext`): a backend that rebuilds the plan elsewhere passes both on. */
  readonly minScore: number;
  readonly seed: number;
  readonly plan: Plan;
  /** 1-based position of the variant in its run (the ground truth first): stable when a run resumes */
  readonly position?: number;
  /**
   * For a run inside an expanded variant (a trial or a calibration run): its 1-based place among
   * the variant's runs, in the adapter's order. With `position` (the variant's) it names the run
   * as stably as `position` names a variant; absent for a variant's own run.
   */
  readonly part?: number;
}

export interface BackendContext {
  readonly docs: DocumentSet;
  /** A private scratch folder for this run; removed by the runner afterwards. */
  readonly workDir: string;
  readonly signal: AbortSignal;
  progress(phase: string, done?: number, total?: number): void;
}

export interface BackendRunResult {
  /** pairs, and the spans and tables the plan's output names */
  readonly outputs: PlanOutputs;
  readonly counters: Counters;
  /** Wall-clock seconds of the variant (for EMR: job time, start-up reported apart in `extra`). */
  readonly runtimeS: number;
  /** CPU seconds spent (user + system, all threads/processes). */
  readonly cpuS: number;
  /** Measured or computed cost; the local backend prices CPU-seconds. */
  readonly costUsd: number;
  /** Bytes written to temporary files (sorted runs, shuffle spills), where the backend measures them. */
  readonly spillBytes?: number;
  /**
   * What the variant would cost run alone, when it reused work of earlier variants
   * (runtime/shared-costs.ts); 'unknown' when a value it reused has no recorded cost. Absent: it
   * reused nothing, and its cost is its own.
   */
  readonly standalone?: { readonly runtimeS: number; readonly cpuS: number; readonly costUsd: number } | 'unknown';
  /** Backend-specific facts for run.json (cluster id, step timelines, …). */
  readonly extra?: Record<string, unknown>;
  /** The cost of a command the plan ran outside the process (its CPU is in `cpuS` already). */
  readonly processTree?: ProcessTreeUsage;
  /** One-line warnings of the plan's own for run.json (a command's skipped output lines). */
  readonly warnings?: readonly string[];
  /** Counters the kernel left out on purpose (contract KernelResult.uncounted). */
  readonly uncounted?: readonly CounterRef[];
}

export interface Backend {
  readonly kind: string;
  run(job: VariantJob, ctx: BackendContext): Promise<BackendRunResult>;
  /**
   * The plan's exact score of any pair (contract LocalKernel.scorer), on the same documents as
   * `run` and sharing what its kernel computed; undefined when the plan has none. Only a backend
   * that runs kernels in this process has it.
   */
  scorer?(job: VariantJob, ctx: BackendContext): Promise<PairScorer | undefined>;
  /**
   * A value the kernels of this backend's runs on `docs` computed and still hold, by the key
   * they cached it under or the codec they stored it by (contract ExplainContext
   * `computedIfAny`): for the explanations of the run's errors. Undefined when no kernel made
   * it, or its computation failed; nothing is computed. Only a backend that runs kernels in
   * this process has it.
   */
  computedIfAny?<T>(docs: DocumentSet, value: string | StoreCodec<T>): Promise<T | undefined>;
  /** Releases threads, processes or clusters; always called, also after a failure. */
  close(): Promise<void>;
}
