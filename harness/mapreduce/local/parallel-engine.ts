/**
 * The in-process engine on several worker threads: the documents are cut into one input file per
 * thread, every input file is one map task, map output is partitioned with Hadoop's
 * HashPartitioner over one reduce task per thread, and each map task sorts and spills its own
 * runs within its share of the memory budget. The same jobs, the same records as `engine.ts`,
 * which runs them on one thread.
 */
import { join } from 'node:path';
import { totalLength, addCounters, DOCUMENTS, DOCUMENTS_META, readsDataset, type Counters, type DocumentSet, type Plan } from '../../../contract/index.ts';
import { writeDocumentMeta } from './engine.ts';
import { LineWriter } from '../lines.ts';
import { encodeRecord } from '../records.ts';
import { workerModule } from '../../../contract/tasks.ts';
import type { TaskRunner } from '../../runtime/tasks.ts';
import type * as Tasks from './tasks.ts';
import type { MapTaskInput, ReduceTaskInput } from './tasks.ts';

const TASKS = workerModule<typeof Tasks>(new URL('./tasks.ts', import.meta.url).href);
const PLANS = new URL('../../../algorithms/plans.ts', import.meta.url).href;

export interface ParallelEngineOptions {
  readonly workDir: string;
  readonly memoryBudgetBytes: number;
  readonly parallelism: number;
  /** where map and reduce tasks run (the runtime's threads) */
  readonly tasks: TaskRunner;
  /** a module exporting `findPlan(name)`; default algorithms/plans.ts */
  readonly planModule?: string;
  readonly signal?: AbortSignal;
  progress?(phase: string, done?: number, total?: number): void;
}

export interface ParallelEngineResult {
  /** dataset name → its part files, in order */
  readonly datasets: ReadonlyMap<string, readonly string[]>;
  readonly counters: Counters;
  /** sorted runs written by map tasks, per job */
  readonly spills: Record<string, number>;
}

export interface PlanIdentity {
  readonly algorithm: string;
  readonly params: unknown;
  readonly minScore: number;
  readonly seed: number;
}

/** One documents file per thread, cut where the text length is even. */
function writeDocumentParts(docs: DocumentSet, dir: string, parts: number): string[] {
  const total = totalLength(docs.texts) + docs.texts.length;
  const files: string[] = [];
  let w: LineWriter | undefined;
  let acc = 0;
  for (let i = 0; i < docs.texts.length; i++) {
    if (!w || (acc >= (files.length * total) / parts && files.length < parts)) {
      w?.close();
      const path = join(dir, `${DOCUMENTS}-part-${String(files.length).padStart(5, '0')}`);
      files.push(path);
      w = new LineWriter(path);
    }
    const text = docs.texts.at(i) as string;
    w.write(encodeRecord(String(i), text));
    acc += text.length + 1;
  }
  w?.close();
  return files;
}

export async function runPlanJobsParallel(
  id: PlanIdentity,
  plan: Plan,
  docs: DocumentSet,
  opts: ParallelEngineOptions,
): Promise<ParallelEngineResult> {
  const planModule = opts.planModule ?? PLANS;
  const datasets = new Map<string, string[]>();
  datasets.set(DOCUMENTS, writeDocumentParts(docs, opts.workDir, opts.parallelism));
  if (readsDataset(plan.jobs, DOCUMENTS_META)) {
    const metaPath = join(opts.workDir, `${DOCUMENTS_META}-part-00000`);
    writeDocumentMeta(docs, metaPath);
    datasets.set(DOCUMENTS_META, [metaPath]);
  }
  const counters: Counters = {};
  const spills: Record<string, number> = {};
  const filesOf = (name: string): string[] => {
    const f = datasets.get(name);
    if (!f) throw new Error(`dataset ${name} is not produced by an earlier job`);
    return f;
  };
  for (const [j, job] of plan.jobs.entries()) {
    opts.signal?.throwIfAborted();
    const label = `job ${j + 1}/${plan.jobs.length} ${job.name}`;
    const inputs = job.inputs.flatMap(filesOf);
    const side = Object.fromEntries((job.side ?? []).map((name) => [name, filesOf(name)]));
    const reducers = job.reducer ? opts.parallelism : 0;
    const source = { planModule, algorithm: id.algorithm, params: id.params, minScore: id.minScore, seed: id.seed, job: job.name };
    let done = 0;
    opts.progress?.(`${label} map`, 0, inputs.length);
    const maps = await Promise.all(
      inputs.map(async (input, m) => {
        const payload: MapTaskInput = {
          ...source,
          input,
          side,
          reducers,
          outPrefix: join(opts.workDir, `${job.name}-m${m}`),
          budgetBytes: Math.max(1, Math.floor(opts.memoryBudgetBytes / opts.parallelism)),
        };
        const out = await opts.tasks.run(TASKS.task('mapTask'), payload);
        opts.progress?.(`${label} map`, ++done, inputs.length);
        return out;
      }),
    );
    for (const m of maps) addCounters(counters, m.counters);
    if (!job.reducer) {
      datasets.set(job.output, maps.map((m) => m.output as string));
      spills[job.name] = 0;
      continue;
    }
    spills[job.name] = maps.reduce((s, m) => s + m.runs.reduce((t, r) => t + r.length, 0), 0);
    opts.signal?.throwIfAborted();
    done = 0;
    opts.progress?.(`${label} reduce`, 0, reducers);
    const outputs = Array.from({ length: reducers }, (_, r) => join(opts.workDir, `${job.output}-part-${String(r).padStart(5, '0')}`));
    const reduced = await Promise.all(
      outputs.map(async (output, r) => {
        const payload: ReduceTaskInput = { ...source, runs: maps.flatMap((m) => m.runs[r] ?? []), side, output };
        const out = await opts.tasks.run(TASKS.task('reduceTask'), payload);
        opts.progress?.(`${label} reduce`, ++done, reducers);
        return out;
      }),
    );
    for (const r of reduced) addCounters(counters, r.counters);
    datasets.set(job.output, outputs);
  }
  return { datasets, counters, spills };
}
