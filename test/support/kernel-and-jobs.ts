/**
 * Runs a detector's plan two ways for the kernel-equals-jobs tests (not a test file): its text
 * jobs one after another in memory (each as the engines run a job: map, combine, sort, reduce;
 * `run-job.ts`), and its local kernel with the context the local backend runs it with
 * (runtime/kernel-context.ts). Each
 * detector's test helpers shape the outcomes (rows, spans, tables) from these.
 */
import { tmpdir } from 'node:os';
import {
  addCounters, DOCUMENTS, DOCUMENTS_META, encodeDocumentMeta, PairCollector, type Counters, type DocumentSet, type KernelResult,
  type PairList, type Plan, type SideRecord, type WorkerTask,
} from '../../contract/index.ts';
import type { ValueStore } from '../../harness/runtime/stored-values.ts';
import type { WorkerPool } from '../../harness/runtime/pool.ts';
import { makeKernelContext } from '../../harness/runtime/kernel-context.ts';
import { createRuntime } from '../../harness/runtime/runtime.ts';
import { runHere } from '../../harness/runtime/tasks.ts';
import { worthThreads } from '../../harness/runtime/thread-policy.ts';
import { mulberry32 } from '../algorithms/text/random-text.ts';
import { runJobInMemory } from './run-job.ts';

export interface JobsOptions {
  /** also the `documents-meta` dataset, for jobs that read the documents' meta as side data */
  readonly meta?: boolean;
  /** shuffle each job's input records with this seed first, so reducers see values in another order than written */
  readonly shuffleSeed?: number;
}

export interface JobsOutcome {
  /** every dataset the jobs wrote, and the input ones */
  readonly datasets: Map<string, SideRecord[]>;
  readonly counters: Counters;
}

/** Every job of the plan in order, each in memory. */
export function runPlanJobs(plan: Plan, docs: DocumentSet, o: JobsOptions = {}): JobsOutcome {
  const datasets = new Map<string, SideRecord[]>([[DOCUMENTS, Array.from(docs.texts).map((t, i): SideRecord => [String(i), t])]]);
  if (o.meta) datasets.set(DOCUMENTS_META, Array.from(docs.texts).map((_, i): SideRecord => [String(i), encodeDocumentMeta(docs.meta?.[i])]));
  const counters: Counters = {};
  const random = o.shuffleSeed === undefined ? undefined : mulberry32(o.shuffleSeed);
  for (const job of plan.jobs) {
    const input = job.inputs.flatMap((name) => {
      const d = datasets.get(name);
      if (!d) throw new Error(`${job.name} reads ${name}, which no earlier job wrote`);
      return d;
    });
    if (random) {
      for (let i = input.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [input[i], input[j]] = [input[j] as SideRecord, input[i] as SideRecord];
      }
    }
    const side = Object.fromEntries((job.side ?? []).map((name) => [name, datasets.get(name) ?? []]));
    const r = runJobInMemory(job, input, side);
    datasets.set(job.output, r.records);
    addCounters(counters, r.counters);
  }
  return { datasets, counters };
}

/** The pairs dataset of the jobs as a pair list, through the harness' own record checks. */
export function jobPairs(plan: Plan, out: JobsOutcome, documents: number): PairList {
  const pairs = new PairCollector(documents);
  for (const [k, v] of out.datasets.get(plan.output.pairs) ?? []) pairs.add(k, v, () => plan.output.pairs);
  return pairs.result();
}

/** Sorted `a b score` rows of a pair list. */
export function pairRows(p: PairList): string[] {
  const rows: string[] = [];
  for (let i = 0; i < p.a.length; i++) rows.push(`${p.a[i]} ${p.b[i]} ${p.score[i]}`);
  return rows.sort();
}

export interface KernelOptions {
  /** the context's parallelism, and the threads of a `pool` run (default 1) */
  readonly workers?: number;
  /**
   * How worker tasks run: `pool`, on the local backend's worker pool (one worker: on the calling
   * thread); `cloned`, in this thread with the payload and result cloned as the pool sends them
   * (own typed arrays moved, shared ones shared); `inline`, a plain call (default).
   */
  readonly tasks?: 'pool' | 'cloned' | 'inline';
  /** a worker pool of the caller's for `pool` tasks (kept open), instead of one of `workers` threads */
  readonly pool?: WorkerPool;
  /** `ctx.cached`'s store, to share work across runs as the variants of one run do */
  readonly cache?: Map<string, Promise<unknown>>;
  /** where `ctx.stored` keeps values across runs (none: computed, as without a cache) */
  readonly store?: ValueStore;
  /**
   * Counting as the local backend does (`backend`: a count() call creates its counter, whatever
   * the amount, as in the text jobs), or leaving out zero amounts (`nonzero`). Default `backend`.
   */
  readonly counting?: 'backend' | 'nonzero';
}

export interface KernelOutcome {
  readonly result: KernelResult;
  readonly counters: Counters;
  /** what `ctx.stored` and `ctx.storedIfAny` replayed from `store` */
  readonly replayed: readonly string[];
}

export async function runPlanKernel(plan: Plan, docs: DocumentSet, o: KernelOptions = {}): Promise<KernelOutcome> {
  const local = plan.local;
  if (!local) throw new Error('the plan has no kernel');
  const workers = o.pool?.size ?? o.workers ?? 1;
  const tasks = o.pool ? 'pool' : (o.tasks ?? 'inline');
  const own = tasks === 'pool' && !o.pool ? createRuntime({ workers }) : undefined;
  const pool = o.pool ?? own;
  // Threads real or simulated (payloads cloned) are up, so kernels hand them their work; inline, they weigh it.
  const here = { parallelism: workers, run: <P, R>(task: WorkerTask<P, R>, payload: P) => runHere(task, payload, tasks === 'cloned'), worthThreads: (steps: number) => worthThreads(steps, tasks !== 'inline') };
  const kernel = makeKernelContext({
    docs,
    tasks: pool ? { parallelism: workers, run: (task, payload) => pool.run(task, payload), worthThreads: () => true } : here,
    memoryBudgetBytes: 2 ** 30,
    // The in-memory kernels under test write nothing; an out-of-core one is tested with its own folder.
    workDir: tmpdir(),
    signal: new AbortController().signal,
    cache: o.cache ?? new Map<string, Promise<unknown>>(),
    ...(o.store ? { store: o.store } : {}),
    counting: o.counting === 'nonzero' ? 'nonzero' : 'every-call',
  });
  try {
    return { result: await local.run(kernel.ctx), counters: kernel.counters, replayed: kernel.replayed };
  } finally {
    await own?.close('finished');
  }
}
