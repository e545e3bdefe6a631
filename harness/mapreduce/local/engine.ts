/**
 * The reference executor of the job model, in process: map, optional combine, a sorted shuffle
 * that spills sorted runs to disk when it outgrows its memory budget (as Hadoop's map side does),
 * a k-way merge, and reduce. Every dataset is a file of encoded records in the work folder, so
 * memory is bounded by the shuffle budget, not by the data.
 *
 * The local backend uses it for plans without a typed-array kernel, and the tests use it to
 * show that a kernel gives exactly the jobs' results.
 */
import { join } from 'node:path';
import type { Counters, DocumentSet, Plan, PlanOutput } from '../../../contract/index.ts';
import { OutputCollector, outputDatasets, type PlanOutputs } from '../outputs.ts';
import { DOCUMENTS, DOCUMENTS_META, encodeDocumentMeta, readsDataset, type JobSpec, type Reducer, type SideRecord, type TaskContext } from '../../../contract/index.ts';
import { LineWriter, readLines } from '../lines.ts';
import { decodeRecord, encodeRecord } from '../records.ts';

export interface EngineOptions {
  readonly workDir: string;
  readonly memoryBudgetBytes: number;
  readonly signal?: AbortSignal;
  progress?(phase: string, done?: number, total?: number): void;
}

export interface EngineResult {
  /** dataset name → file of encoded records */
  readonly datasets: ReadonlyMap<string, string>;
  readonly counters: Counters;
  /** shuffle spills written, per job */
  readonly spills: Record<string, number>;
}

export type Pair = [key: string, value: string];

export function writeDocuments(docs: DocumentSet, path: string): void {
  const w = new LineWriter(path);
  for (let i = 0; i < docs.texts.length; i++) w.write(encodeRecord(String(i), docs.texts.at(i) as string));
  w.close();
}

/** The `documents-meta` dataset: each document's meta as a JSON object, one record per document. */
export function writeDocumentMeta(docs: DocumentSet, path: string): void {
  const w = new LineWriter(path);
  for (let i = 0; i < docs.texts.length; i++) w.write(encodeRecord(String(i), encodeDocumentMeta(docs.meta?.[i])));
  w.close();
}

export function runPlanJobs(plan: Plan, docs: DocumentSet, opts: EngineOptions): EngineResult {
  const datasets = new Map<string, string>();
  const docsPath = join(opts.workDir, `${DOCUMENTS}.txt`);
  writeDocuments(docs, docsPath);
  datasets.set(DOCUMENTS, docsPath);
  if (readsDataset(plan.jobs, DOCUMENTS_META)) {
    const metaPath = join(opts.workDir, `${DOCUMENTS_META}.txt`);
    writeDocumentMeta(docs, metaPath);
    datasets.set(DOCUMENTS_META, metaPath);
  }
  const counters: Counters = {};
  const spills: Record<string, number> = {};
  plan.jobs.forEach((job, i) => {
    opts.signal?.throwIfAborted();
    opts.progress?.(`job ${i + 1}/${plan.jobs.length} ${job.name}`);
    spills[job.name] = runJob(job, datasets, counters, opts);
  });
  return { datasets, counters, spills };
}

export function contextFor(
  counters: Counters,
  side: ReadonlyMap<string, readonly SideRecord[]>,
  emit: (k: string, v: string) => void,
): TaskContext {
  return {
    emit,
    count(group, name, amount = 1) {
      const g = (counters[group] ??= {});
      g[name] = (g[name] ?? 0) + amount;
    },
    side(dataset) {
      const s = side.get(dataset);
      if (!s) throw new Error(`side dataset ${dataset} was not declared by the job`);
      return s;
    },
  };
}

function runJob(job: JobSpec, datasets: Map<string, string>, counters: Counters, opts: EngineOptions): number {
  const side = new Map<string, SideRecord[]>();
  for (const name of job.side ?? []) side.set(name, [...readDataset(datasets, name)]);
  const outPath = join(opts.workDir, `${job.output}.txt`);
  const out = new LineWriter(outPath);
  const writeOut = (k: string, v: string): void => out.write(encodeRecord(k, v));

  if (!job.reducer) {
    const mapper = job.mapper(contextFor(counters, side, writeOut));
    for (const name of job.inputs) for (const [k, v] of readDataset(datasets, name)) mapper.map(k, v);
    mapper.close?.();
    out.close();
    datasets.set(job.output, outPath);
    return 0;
  }

  let buffer: Pair[] = [];
  let bytes = 0;
  const runs: string[] = [];
  const spill = (): void => {
    const path = join(opts.workDir, `${job.name}.spill${runs.length}.txt`);
    writeSortedRun(path, buffer, job, side);
    runs.push(path);
    buffer = [];
    bytes = 0;
  };
  const mapper = job.mapper(
    contextFor(counters, side, (k, v) => {
      buffer.push([k, v]);
      bytes += 2 * (k.length + v.length) + 64;
      if (bytes >= opts.memoryBudgetBytes) spill();
    }),
  );
  for (const name of job.inputs) for (const [k, v] of readDataset(datasets, name)) mapper.map(k, v);
  mapper.close?.();

  const reducer = job.reducer(contextFor(counters, side, writeOut));
  if (runs.length === 0) {
    forEachGroup(buffer.sort(byKey), reducer);
  } else {
    if (buffer.length > 0) spill();
    forEachGroup(mergeRuns(runs), reducer);
  }
  reducer.close?.();
  out.close();
  datasets.set(job.output, outPath);
  return runs.length;
}

/** Sorts a map task's buffered output by key and writes it as one run, through the job's combiner if it has one. */
export function writeSortedRun(path: string, buffer: Pair[], job: JobSpec, side: ReadonlyMap<string, readonly SideRecord[]>): void {
  const w = new LineWriter(path);
  const sorted = buffer.sort(byKey);
  if (job.combiner) {
    const combiner = job.combiner(contextFor({}, side, (k, v) => w.write(encodeRecord(k, v))));
    forEachGroup(sorted, combiner);
    combiner.close?.();
  } else {
    for (const [k, v] of sorted) w.write(encodeRecord(k, v));
  }
  w.close();
}

export function byKey(x: Pair, y: Pair): number {
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0;
}

/** Calls reduce once per run of equal keys in sorted input. */
export function forEachGroup(sorted: Iterable<Pair>, reducer: Reducer): void {
  let key: string | undefined;
  let values: string[] = [];
  for (const [k, v] of sorted) {
    if (k !== key) {
      if (key !== undefined) reducer.reduce(key, values);
      key = k;
      values = [];
    }
    values.push(v);
  }
  if (key !== undefined) reducer.reduce(key, values);
}

/** k-way merge of sorted run files by key. */
export function* mergeRuns(paths: readonly string[]): Generator<Pair> {
  const heads: { it: Generator<string>; rec: Pair }[] = [];
  for (const p of paths) {
    const it = readLines(p);
    const first = it.next();
    if (!first.done) heads.push({ it, rec: decodeRecord(first.value) });
  }
  while (heads.length > 0) {
    let min = 0;
    for (let i = 1; i < heads.length; i++) if (byKey((heads[i] as (typeof heads)[0]).rec, (heads[min] as (typeof heads)[0]).rec) < 0) min = i;
    const h = heads[min] as (typeof heads)[0];
    yield h.rec;
    const next = h.it.next();
    if (next.done) heads.splice(min, 1);
    else h.rec = decodeRecord(next.value);
  }
}

function* readDataset(datasets: ReadonlyMap<string, string>, name: string): Generator<Pair> {
  const path = datasets.get(name);
  if (!path) throw new Error(`dataset ${name} is not produced by an earlier job`);
  for (const line of readLines(path)) yield decodeRecord(line);
}

/** Reads the plan's output datasets (pairs, spans, tables) from their part files, in order. */
export function readOutputFiles(
  variant: string,
  output: PlanOutput,
  datasets: ReadonlyMap<string, readonly string[]>,
  documents: number,
): PlanOutputs {
  const collector = new OutputCollector(output, documents);
  for (const name of outputDatasets(output)) {
    const files = datasets.get(name);
    if (!files) throw new Error(`plan of ${variant} produced no dataset ${name}`);
    for (const path of files) {
      let line = 0;
      for (const text of readLines(path)) {
        line++;
        const [k, v] = decodeRecord(text);
        collector.add(name, k, v, () => `${path}: line ${line}`);
      }
    }
  }
  return collector.result();
}
