/**
 * Map and reduce tasks of the in-process engine, run on the local backend's worker threads
 * (`parallel-engine.ts`). A task rebuilds its job from the algorithm's plan table, as the
 * streaming job script does, reads its input file, and writes sorted runs or output records to
 * files: nothing but file names and counters crosses between threads.
 */
import type { Counters, JobSpec, PlanFunction, SideRecord } from '../../../contract/index.ts';
import { importModule } from '../../build/import-module.ts';
import { LineWriter, readLines } from '../lines.ts';
import { hadoopPartition } from '../partition.ts';
import { decodeRecord, encodeRecord } from '../records.ts';
import { contextFor, forEachGroup, mergeRuns, writeSortedRun, type Pair } from './engine.ts';

/** Where a task finds its plan: a module exporting `findPlan(name)` (algorithms/plans.ts). */
export interface PlanSource {
  readonly planModule: string;
  readonly algorithm: string;
  readonly params: unknown;
  readonly minScore: number;
  readonly seed: number;
  readonly job: string;
}

async function loadJob(src: PlanSource): Promise<JobSpec> {
  const mod = (await importModule(src.planModule)) as unknown as { findPlan(name: string): Promise<PlanFunction | undefined> };
  const plan = await mod.findPlan(src.algorithm);
  if (!plan) throw new Error(`${src.planModule} has no algorithm ${src.algorithm}`);
  const job = plan(src.params as never, { minScore: src.minScore, seed: src.seed }).jobs.find((j) => j.name === src.job);
  if (!job) throw new Error(`algorithm ${src.algorithm} has no job ${src.job}`);
  return job;
}

function loadSide(side: Readonly<Record<string, readonly string[]>>): Map<string, SideRecord[]> {
  const out = new Map<string, SideRecord[]>();
  for (const [name, files] of Object.entries(side)) {
    const records: SideRecord[] = [];
    for (const f of files) for (const line of readLines(f)) records.push(decodeRecord(line));
    out.set(name, records);
  }
  return out;
}

export interface MapTaskInput extends PlanSource {
  readonly input: string;
  readonly side: Readonly<Record<string, readonly string[]>>;
  /** reduce tasks the output is partitioned over; 0 for a map-only job */
  readonly reducers: number;
  /** files are named `${outPrefix}…` */
  readonly outPrefix: string;
  readonly budgetBytes: number;
}

export interface MapTaskOutput {
  /** map-only: the output file; else sorted runs by partition */
  readonly output?: string;
  readonly runs: string[][];
  readonly counters: Counters;
}

export async function mapTask(t: MapTaskInput): Promise<MapTaskOutput> {
  const job = await loadJob(t);
  const side = loadSide(t.side);
  const counters: Counters = {};
  if (t.reducers === 0) {
    const output = `${t.outPrefix}.out`;
    const w = new LineWriter(output);
    const mapper = job.mapper(contextFor(counters, side, (k, v) => w.write(encodeRecord(k, v))));
    for (const line of readLines(t.input)) mapper.map(...decodeRecord(line));
    mapper.close?.();
    w.close();
    return { output, runs: [], counters };
  }
  const buffers: Pair[][] = Array.from({ length: t.reducers }, () => []);
  const runs: string[][] = Array.from({ length: t.reducers }, () => []);
  let bytes = 0;
  const spill = (): void => {
    buffers.forEach((buffer, p) => {
      if (buffer.length === 0) return;
      const path = `${t.outPrefix}-p${p}-s${(runs[p] as string[]).length}`;
      writeSortedRun(path, buffer, job, side);
      (runs[p] as string[]).push(path);
      buffers[p] = [];
    });
    bytes = 0;
  };
  const mapper = job.mapper(
    contextFor(counters, side, (k, v) => {
      (buffers[hadoopPartition(k, t.reducers)] as Pair[]).push([k, v]);
      bytes += 2 * (k.length + v.length) + 64;
      if (bytes >= t.budgetBytes) spill();
    }),
  );
  for (const line of readLines(t.input)) mapper.map(...decodeRecord(line));
  mapper.close?.();
  spill();
  return { runs, counters };
}

export interface ReduceTaskInput extends PlanSource {
  readonly runs: readonly string[];
  readonly side: Readonly<Record<string, readonly string[]>>;
  readonly output: string;
}

export async function reduceTask(t: ReduceTaskInput): Promise<{ counters: Counters }> {
  const job = await loadJob(t);
  if (!job.reducer) throw new Error(`job ${job.name} has no reducer`);
  const side = loadSide(t.side);
  const counters: Counters = {};
  const w = new LineWriter(t.output);
  const reducer = job.reducer(contextFor(counters, side, (k, v) => w.write(encodeRecord(k, v))));
  forEachGroup(mergeRuns(t.runs), reducer);
  reducer.close?.();
  w.close();
  return { counters };
}
