/**
 * A kernel's context for tests that run a kernel on one thread (its tasks run here) or on two
 * (a worker pool the test owns), within a memory budget: what the local backend would give it.
 */
import type { Counters, DocumentSet, KernelContext, WorkerTask } from '../../contract/index.ts';
import { makeKernelContext } from '../../harness/runtime/kernel-context.ts';
import type { WorkerPool } from '../../harness/runtime/pool.ts';
import { runHere } from '../../harness/runtime/tasks.ts';

export interface KernelOnThreads {
  readonly docs: DocumentSet;
  /** the test's pool, used when `threads` is 2 */
  readonly pool: WorkerPool;
  readonly threads: 1 | 2;
  readonly budget: number;
  readonly workDir: string;
  readonly counters?: Counters;
  readonly cache?: Map<string, unknown>;
  readonly signal?: AbortSignal;
  readonly progress?: (phase: string, done?: number) => void;
}

export function kernelOnThreads(o: KernelOnThreads): KernelContext {
  return makeKernelContext({
    docs: o.docs,
    tasks:
      o.threads === 2
        ? { parallelism: 2, run: (task, payload) => o.pool.run(task, payload), worthThreads: () => true }
        : { parallelism: 1, run: <P, R>(task: WorkerTask<P, R>, payload: P) => runHere(task, payload), worthThreads: () => false },
    memoryBudgetBytes: o.budget,
    workDir: o.workDir,
    signal: o.signal ?? new AbortController().signal,
    cache: o.cache ?? new Map(),
    counters: o.counters ?? {},
    progress: (phase, done) => o.progress?.(phase, done),
  }).ctx;
}
