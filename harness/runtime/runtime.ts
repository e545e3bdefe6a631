/**
 * The run's execution resources, built once by the runner and handed to the corpus reading and
 * to the backend: the worker threads (pool.ts), the threads reads parse on (read-threads.ts),
 * the values kept across runs (stored-values.ts), and the kernels' contexts (kernel-context.ts).
 * Nothing else starts threads or decides whether work goes to them (thread-policy.ts).
 *
 * When the threads start is the runner's one choice (`start`): with the runtime, so that their
 * start and module loading overlap the corpus read (several variants' joins will need them), or
 * with the first task that pays for a thread's start (a single variant replaying stored values
 * may never need one).
 */
import type { DocumentSet, StoreCodec, WorkerTask } from '../../contract/index.ts';
import { makeKernelContext, type KernelContextOptions, type KernelScope, type KernelTasks } from './kernel-context.ts';
import { WorkerPool } from './pool.ts';
import { ownReadThreads, readThreadsOf, type ReadThreads } from './read-threads.ts';
import type { ValueStore } from './stored-values.ts';
import type { TaskRunner } from './tasks.ts';
import { worthThreads } from './thread-policy.ts';

export interface RuntimeOptions {
  /**
   * Worker threads for the run's tasks (the local backend's `workers`; 1 runs tasks on the
   * calling thread). Absent: none (a backend of processes or a cluster); reads then take
   * threads of their own as they need them.
   */
  readonly workers?: number;
  /** `now`: the threads start with the runtime; `on-demand` (default): with the first task handed to them */
  readonly start?: 'now' | 'on-demand';
  /** modules every thread loads as it starts, before its first task (the plans' worker modules) */
  readonly preload?: readonly string[];
  /** where stored values are kept across runs; none: computed in every run */
  readonly store?: ValueStore;
}

/** How a run ended, for what the runtime keeps: an interrupted run writes no stored values. */
export type RunEnd = 'finished' | 'interrupted';

export interface Runtime extends KernelTasks {
  /** the threads a corpus read parses on */
  readonly reads: ReadThreads;
  readonly store: ValueStore | undefined;
  /**
   * The runtime's threads when they are up, for side work that pays only without a thread's
   * start (a pairs file); undefined otherwise.
   */
  threadsIfUp(): TaskRunner | undefined;
  /** `codec`'s value for `docs`: replayed from the store, or computed (and stored when the run finishes). */
  stored<T>(docs: DocumentSet, codec: StoreCodec<T>, compute: () => T): Promise<T>;
  /** A kernel's context on these threads and this store. */
  kernelContext(o: Omit<KernelContextOptions, 'tasks' | 'store'>): KernelScope;
  /** Stops every task now; pending ones reject with `reason`. */
  abort(reason: unknown): Promise<void>;
  /** Stops the threads, then writes the values computed this run, unless it was interrupted. */
  close(end: RunEnd): Promise<void>;
}

export function createRuntime(o: RuntimeOptions = {}): Runtime {
  const pool = o.workers === undefined ? undefined : new WorkerPool(o.workers);
  if (pool && o.start === 'now') pool.warm(o.preload ?? []);
  else pool?.preloadOnStart(o.preload ?? []);
  const store = o.store;
  const runtime: Runtime = {
    parallelism: pool?.size ?? 1,
    reads: pool ? readThreadsOf(pool) : ownReadThreads,
    store,
    run: <P, R>(task: WorkerTask<P, R>, payload: P): Promise<R> => {
      if (!pool) throw new Error(`no worker threads in this run for ${task.exportName}`);
      return pool.run(task, payload);
    },
    worthThreads: (steps) => worthThreads(steps, pool?.running === true),
    threadsIfUp: () => (pool && pool.size > 1 && pool.running ? pool : undefined),
    stored: async (docs, codec, compute) => (store ? (await store.get(docs, codec, () => Promise.resolve(compute()))).value : compute()),
    kernelContext: (k) => makeKernelContext({ ...k, tasks: runtime, ...(store ? { store } : {}) }),
    abort: async (reason) => pool?.abort(reason),
    async close(end) {
      await pool?.close();
      if (end === 'interrupted') store?.discard();
      else await store?.flush();
    },
  };
  return runtime;
}
