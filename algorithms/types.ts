/**
 * The algorithm adapter contract (DESIGN.md "Algorithm adapter"). The harness knows
 * algorithms only through `algorithms/registry.ts`; adding one touches no harness file.
 *
 * An adapter is a name, a zod parameter schema (defaults and `.describe()` texts are what
 * `bench list` prints and what `configs/schema.json` is generated from) and `plan`, a pure
 * function from validated parameters to a pipeline of MapReduce jobs. Every plan's output is
 * the same shape: a dataset of pairs (key `a:b` with document indexes a < b, value the score in
 * [0, 1] as written by `formatScore`), plus optionally a dataset of spans (partial duplicates).
 *
 * A plan may also carry `local`, an in-process implementation of the whole pipeline over
 * typed arrays, which the local backend prefers for speed. It must give exactly the pairs,
 * scores and counters of the jobs; `test/algorithms/*` runs both and compares.
 */
import type { z } from 'zod';
import type { JobSpec } from '../harness/mapreduce/job.ts';

export interface PlanContext {
  /** `evaluate.min_score`: pairs scoring below it need not be reported. */
  readonly minScore: number;
}

export interface Plan {
  readonly jobs: readonly JobSpec[];
  readonly output: { readonly pairs: string; readonly spans?: string };
  readonly local?: LocalKernel;
  /** Modules `local` runs on worker threads (`runInWorker`); a backend may load them early. */
  readonly localModules?: readonly string[];
}

/** The documents of a corpus after subsetting, indexed 0..n-1 in reading order. */
export interface DocumentSet {
  readonly ids: readonly string[];
  readonly texts: readonly string[];
}

/** Pairs by document index, a < b, in no particular order. */
export interface PairList {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
}

/** A span of a partial duplicate: character offsets into each document's text. */
export interface Span {
  readonly a: number;
  readonly b: number;
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
}

export interface KernelResult {
  readonly pairs: PairList;
  readonly spans?: readonly Span[];
}

export type Counters = Record<string, Record<string, number>>;

export interface KernelContext {
  readonly docs: DocumentSet;
  /**
   * Runs `exportName` of `moduleUrl` in a worker thread with `payload`; the function may be async.
   * Typed arrays on SharedArrayBuffers are shared, others are copied in and transferred back.
   */
  runInWorker<T>(moduleUrl: string, exportName: string, payload: unknown): Promise<T>;
  /** Number of worker threads the backend may use (the cores it was given). */
  readonly parallelism: number;
  /** Memoizes work that several variants of one run share (e.g. fingerprints of the same shingling). */
  cached<T>(key: string, compute: () => Promise<T>): Promise<T>;
  count(group: string, name: string, amount?: number): void;
  progress(phase: string, done?: number, total?: number): void;
  readonly memoryBudgetBytes: number;
}

export type LocalKernel = (ctx: KernelContext) => Promise<KernelResult>;

export interface AlgorithmAdapter<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  /** One line for `bench list`. */
  readonly description: string;
  /** The paper(s) it implements, for the README and reports. */
  readonly citation: string;
  readonly params: S;
  plan(params: z.output<S>, ctx: PlanContext): Plan;
}

/** Formats a score so that every backend writes the same text for the same double. */
export function formatScore(x: number): string {
  return String(x);
}
