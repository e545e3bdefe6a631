/**
 * The MapReduce job model every backend runs (docs/design.md §5.3).
 *
 * A job is map(key, value) → (key, value)*, an optional combine, and reduce(key, values) →
 * records. Keys and values are strings with a line encoding (`harness/mapreduce/records.ts`):
 * `key<TAB>value`, one record a line, so that the very same job runs as a Hadoop Streaming
 * mapper and reducer. A job is built by a factory per task, so a task can hold state (parsed
 * side data, in-mapper aggregation) and flush it in `close()`.
 *
 * Jobs are never serialized: a backend that runs a job in another thread or process rebuilds
 * the plan there from the algorithm name and its validated parameters (plans are pure).
 */

/** What a running map or reduce task can do besides emitting records. */
export interface TaskContext {
  /** Emits one output record. Neither key nor value may be undefined; both are raw (unescaped). */
  emit(key: string, value: string): void;
  /** Adds to a named counter (Hadoop's `reporter:counter:group,name,amount`). */
  count(group: string, name: string, amount?: number): void;
  /** The records of an earlier job's output named in `JobSpec.side`, loaded whole (Hadoop's distributed cache). */
  side(dataset: string): readonly SideRecord[];
}

export type SideRecord = readonly [key: string, value: string];

export interface Mapper {
  map(key: string, value: string): void;
  /** Called once after the last record of the split: flush in-mapper aggregates here. */
  close?(): void;
}

export interface Reducer {
  /** Values arrive in the order the shuffle delivers them; a reducer must not depend on it. */
  reduce(key: string, values: readonly string[]): void;
  close?(): void;
}

export interface JobSpec {
  /** Stable id, unique within a plan, used in counters, file names and EMR step names: `mr1-shingle-pairs`. */
  readonly name: string;
  /** One line: what the job computes. */
  readonly description: string;
  /** Datasets the job reads: `documents` (key = document index, value = text) or an earlier job's `output`. */
  readonly inputs: readonly string[];
  /** The dataset this job writes. */
  readonly output: string;
  /** Earlier datasets every task loads whole before its first record. */
  readonly side?: readonly string[];
  /**
   * What the mapper's output depends on, when that is less than the whole job: two jobs of one
   * run with the same name, the same inputs and the same `mapKey` emit the same map output, so
   * a backend may keep it and run only the reduce side again. (Broder's MR#1 mapper does not see
   * the SCT, which its reducer applies: every SCT variant shares the ground truth's map output.)
   */
  readonly mapKey?: string;
  readonly mapper: (ctx: TaskContext) => Mapper;
  /** Runs on each map task's output before the shuffle; must be associative and idempotent in effect. */
  readonly combiner?: (ctx: TaskContext) => Reducer;
  /** Absent: a map-only job, the map output is the job output (Hadoop's `numReduceTasks=0`). */
  readonly reducer?: (ctx: TaskContext) => Reducer;
}

/** The dataset name of the input every plan starts from. */
export const DOCUMENTS = 'documents';

/**
 * Each document's `meta` (a mail's subject and sender, a page's title and URL): key the document
 * index, value `encodeDocumentMeta(meta)`, one record per document (`{}` when it has none).
 * Every backend writes it, like `documents`, for a plan with a job that reads it (as an input or
 * as side data); a plan that needs no meta costs nothing.
 */
export const DOCUMENTS_META = 'documents-meta';

/** A document's meta as the value of its `documents-meta` record: a JSON object of strings. */
export function encodeDocumentMeta(meta: Readonly<Record<string, string>> | undefined): string {
  return JSON.stringify(meta ?? {});
}

export function decodeDocumentMeta(value: string): Record<string, string> {
  return JSON.parse(value) as Record<string, string>;
}

/** Whether any job reads `dataset`, as an input or as side data. */
export function readsDataset(jobs: readonly JobSpec[], dataset: string): boolean {
  return jobs.some((j) => j.inputs.includes(dataset) || (j.side ?? []).includes(dataset));
}
