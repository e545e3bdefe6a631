/**
 * A plan: what an adapter turns validated parameters into. A pipeline of MapReduce jobs that
 * every backend can run, what its output means to the evaluation, and optionally a local
 * kernel: the same computation over typed arrays in process, which the local backend prefers.
 * A kernel must give exactly the pairs, spans, tables and counters of the jobs; a test of each
 * detector runs both and compares.
 */
import type { CounterRef, Counters } from './counters.ts';
import type { DocumentSet } from './documents.ts';
import type { JobSpec, SideRecord } from './jobs.ts';
import type { PairList } from './pairs.ts';
import type { Placement, ProcessTreeUsage } from './process.ts';
import type { Span } from './spans.ts';
import type { WorkerModule, WorkerTask } from './tasks.ts';

export interface PlanContext {
  /**
   * The lowest score a pair must have to be reported. The runner passes the smallest positive
   * double (report every pair the detector scores) so that the evaluation sees exact scores
   * near `evaluate.min_score`.
   */
  readonly minScore: number;
  /** The experiment's `seed`: every random choice of a plan (permutations, lexicons) derives from it. */
  readonly seed: number;
  /**
   * `--strict` (or `corpus.strict`): a record the plan reads and cannot use (a malformed line of
   * a command's output) is an error instead of a counted skip. Absent: false.
   */
  readonly strict?: boolean;
}

/**
 * What the scores of the pairs mean, which decides the measures the evaluation computes.
 * - `resemblance`: the score estimates the ground truth's resemblance (Broder sampling, exact
 *   joins, MinHash), so average error and correlation are defined. Every pair scoring at least
 *   `floor` is reported; the evaluation compares scores only from `max(floor, min_score)` up (a
 *   join at t = 0.8 says nothing of pairs at 0.3).
 * - `other`: a score on another scale (simhash's 1 − d/64) or a yes/no with a strength
 *   (I-Match's share of signatures shared); `why` is written to run.json beside the empty
 *   avg_error and correlation cells.
 */
export type ScoreMeaning =
  | { readonly kind: 'resemblance'; readonly floor: number }
  | { readonly kind: 'other'; readonly why: string };

/**
 * Which pairs the detector calls near-duplicates (Res in precision and recall).
 * - `score-at-threshold`: those scoring at least `evaluate.threshold` (an estimator of the RR
 *   with no threshold of its own, such as Broder's).
 * - `every-reported-pair`: every pair it reports (simhash within distance k, I-Match signature
 *   collisions, a join at its own threshold).
 */
export type DecisionRule = { readonly kind: 'score-at-threshold' } | { readonly kind: 'every-reported-pair' };

/**
 * A per-document table a plan writes beside its pairs (simhash signatures, LSH clusters): the
 * dataset's records have a document index as key and `columns.length - 1` space-separated
 * fields as value; the run folder gets `<folder>/<variant>.csv.gz` with the document id first.
 */
export interface TableOutput {
  readonly dataset: string;
  readonly folder: string;
  readonly columns: readonly string[];
  /** One line for the README of the results and the report. */
  readonly description: string;
}

export interface PlanOutput {
  /** The dataset of pair records (`pairs.ts`). */
  readonly pairs: string;
  /** The dataset of span records (`spans.ts`), for detectors that locate shared text. */
  readonly spans?: string;
  readonly tables?: readonly TableOutput[];
  /**
   * The dataset of `tables` that holds the detector's clusters (records: document index →
   * "cluster size", the cluster any integer label): the evaluation then measures the clusters
   * too (induced pairs, B-cubed, documents removed: docs/design.md §8.8). Absent: no clusters.
   */
  readonly clusters?: string;
  /**
   * What the clusters were closed from, for the chain that explains why two documents are in
   * one (issue 26): `decided pairs` when the pairs dataset holds the links before closure
   * (MinHash-LSH's components of its decided pairs); absent, the pairs dataset holds every pair
   * inside a cluster (a command that writes clusters) and the links are not known.
   */
  readonly clusterLinks?: 'decided pairs';
  readonly score: ScoreMeaning;
  readonly decisions: DecisionRule;
  /**
   * The counter of the pairs the detector generated or compared before deciding (Broder's MR#1
   * output pairs, simhash's Hamming candidates, PPJoin's candidates before verification); the
   * evaluation reports it as `candidate_pairs` and compares it with the ground truth's.
   */
  readonly candidates?: CounterRef;
}

export interface Plan {
  readonly jobs: readonly JobSpec[];
  readonly output: PlanOutput;
  readonly local?: LocalKernel;
  /** Set when only one backend can run the plan (a command on this machine); absent: any backend. */
  readonly placement?: Placement;
}

/** The size of a document set, which is all a cost model needs. */
export interface CorpusShape {
  readonly documents: number;
  /** total UTF-16 code units of the texts */
  readonly chars: number;
}

export interface LocalKernel {
  run(ctx: KernelContext): Promise<KernelResult>;
  /**
   * The plan's cost model: about how many bytes the process holds at the kernel's peak for a
   * corpus of this shape when the kernel works in memory. The local backend runs the kernel
   * when this fits `memory_mb`, or when the kernel is `outOfCore`.
   */
  memoryBytes(shape: CorpusShape): number;
  /**
   * The kernel keeps within `KernelContext.memoryBudgetBytes` at any corpus size: when
   * `memoryBytes` exceeds the budget it works out of core, in sorted runs under
   * `KernelContext.workDir`. The local backend then runs it whatever the size, instead of
   * falling back to the plan's text jobs.
   */
  readonly outOfCore?: boolean;
  /** Modules the kernel runs on worker threads (`runInWorker`); a backend may load them early. */
  readonly workerModules?: readonly Pick<WorkerModule<unknown>, 'url'>[];
  /**
   * The plan's exact score of any pair, whatever the floor it reports from: the score it would
   * report at the smallest floor, 0 for a pair it would not report at all. A ground truth with
   * a scorer reports only from the lowest score the measures read, and the evaluation asks the
   * scorer for a variant's pairs under it (docs/design.md §8.2), instead of the ground truth
   * reporting every pair it scores above 0.
   */
  readonly scorer?: (ctx: KernelContext) => Promise<PairScorer>;
  /**
   * About how many bytes the process holds with the scorer made, for a corpus of this shape,
   * however the kernel ran (in memory or out of core); default `memoryBytes`. A ground truth
   * whose scorer would not fit `memory_mb` reports every pair instead of looking pairs up.
   */
  scorerBytes?(shape: CorpusShape): number;
}

/**
 * Scores of the pairs (a[i], b[i]), a[i] < b[i], as a plan would report them (`LocalKernel.scorer`).
 * Asynchronous: a scorer works on the worker threads (`KernelContext.runInWorker`), so the
 * calling thread stays free to hear an interrupt; the caller asks in bounded pieces.
 */
export type PairScorer = (a: Uint32Array, b: Uint32Array) => Promise<Float64Array>;

export interface KernelResult {
  readonly pairs: PairList;
  readonly spans?: readonly Span[];
  /** dataset → records, for each of the plan's `output.tables` */
  readonly tables?: Readonly<Record<string, readonly SideRecord[]>>;
  /** Bytes the kernel wrote to `workDir` (sorted runs), for the results' spill measure. */
  readonly spillBytes?: number;
  /**
   * Counters of the plan that this run left out on purpose (a parameter skips them): their
   * metrics.csv cells are empty, not the 0 of a counter that never happened.
   */
  readonly uncounted?: readonly CounterRef[];
  /** What the processes the kernel started cost, beyond the harness' own process (a command's tree). */
  readonly processTree?: ProcessTreeUsage;
  /** One-line warnings for run.json (skipped lines of a command's output, with file and line). */
  readonly warnings?: readonly string[];
  /** Files kept in the results folder as they are (`kept/<variant>/<name>`), for the detector's explanations (ExplainContext.kept): a command's own output. */
  readonly kept?: readonly KeptFile[];
}

/** A file a kernel keeps with its run's results (KernelResult.kept). */
export interface KeptFile {
  /** a file name, no folder */
  readonly name: string;
  readonly bytes: Uint8Array;
  /** what it is, for run.json */
  readonly description: string;
}

/** A value as `KernelContext.stored` keeps it: a little JSON and arrays of 32-bit words. */
export interface StoredForm {
  readonly meta: Readonly<Record<string, number | string | boolean>>;
  readonly arrays: readonly Uint32Array[];
}

/** How a kernel's value is kept across runs (`KernelContext.stored`). */
export interface StoreCodec<T> {
  /**
   * Names the value and the code that computes it (`codeDigest` of its folder): what other
   * parameters or another version of the code would compute must be under another key.
   */
  readonly key: string;
  /** what `bench cache` lists the value as, e.g. "fingerprint features (char-64 shingles, rabin64)" */
  readonly describe: string;
  encode(value: T): StoredForm;
  /** The form `encode` gave, read back; its arrays are on SharedArrayBuffers. */
  decode(form: StoredForm): T;
}

export interface KernelContext {
  readonly docs: DocumentSet;
  /**
   * Runs `task` (tasks.ts) in a worker thread with `payload`; the function may be async. Typed
   * arrays on SharedArrayBuffers are shared, others are copied in and transferred back.
   */
  runInWorker<P, R>(task: WorkerTask<P, R>, payload: P): Promise<R>;
  /** Number of worker threads the backend may use (the cores it was given). */
  readonly parallelism: number;
  /**
   * Whether work of about `steps` small steps (a few nanoseconds each, such as a join's posting
   * steps) is worth handing to worker threads. The harness decides, weighing it against what
   * starting the threads would cost now; false: the work is cheaper on the calling thread.
   */
  worthThreads(steps: number): boolean;
  /** Memoizes work that several variants of one run share (e.g. fingerprints of the same shingling). */
  cached<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /**
   * `cached`, and kept across runs when the harness keeps a cache: a later run over the same
   * documents (the harness keys the value by a digest of their texts and `codec.key`) replays
   * it instead of computing it. The variant that replays it says so in its results, since its
   * runtime then leaves the computation out.
   */
  stored<T>(codec: StoreCodec<T>, compute: () => Promise<T>): Promise<T>;
  /**
   * What `stored` would give for `codec` without computing it: the value this run computed or
   * an earlier run stored, else undefined (for work that pays only when it is already done).
   */
  storedIfAny<T>(codec: StoreCodec<T>): Promise<T | undefined>;
  count(group: string, name: string, amount?: number): void;
  progress(phase: string, done?: number, total?: number): void;
  readonly memoryBudgetBytes: number;
  /**
   * A folder for the kernel's temporary files, inside the run's work folder (which the runner
   * removes when the run ends, however it ends). It is shared by the variants of a run, so a
   * kernel makes its own subfolders; files cached for later variants may stay until the run ends.
   */
  readonly workDir: string;
  readonly signal: AbortSignal;
}

/** Counters by group and name, as kernels and jobs report them. */
export type { Counters };
