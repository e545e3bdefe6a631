/**
 * The threads a corpus read parses on (corpus/parallel.ts): how many, and whose. A read in a run
 * borrows the runtime's worker threads when it has several (runtime.ts: they are starting
 * anyway, and idle until the first variant); any other read (`bench corpus`, a run on a backend
 * of processes, the tests) takes threads of its own, which stay idle for a while after it ends
 * so that reads in a row start them once.
 */
import { availableParallelism } from 'node:os';
import { WorkerPool } from './pool.ts';
import type { TaskRunner } from './tasks.ts';

/** What a read asks threads for. */
export interface ReadRequest {
  /** the input's size, estimated and uncompressed */
  readonly estimatedBytes: number;
  /** threads asked for by the caller (ReadContext.workers); 1 parses on the calling thread */
  readonly workers?: number;
  /**
   * False when parsing a record costs less than moving it to a thread and its document back
   * (JSONL: JSON.parse is native and fast): then only an explicit thread count parses on threads.
   */
  readonly worthThreads?: boolean;
  /** the module holding the parser, which threads load as they start */
  readonly preload: string;
}

/** Threads lent to one read. */
export interface ReadLease {
  readonly pool: TaskRunner;
  /** batches in flight at once: enough to keep every thread busy while the calling thread frames */
  readonly queued: number;
  /** the read is over; `completed`: it ran to its end (any other end stops its own threads now) */
  release(completed: boolean): Promise<void>;
}

export interface ReadThreads {
  /** Threads for a read, or undefined: it parses on the calling thread. */
  lease(request: ReadRequest): ReadLease | undefined;
}

/**
 * Inputs at least this large (estimated, uncompressed) are parsed on worker threads. Measured
 * (scripts/bench-readers.ts, the bundled corpus): below it, starting the threads, warming their
 * JIT and moving records and documents between threads cost more CPU than the parse they take
 * over, and on a loaded machine more wall time too.
 */
export const PARALLEL_MIN_BYTES = 64 * 1024 * 1024;
/**
 * Batches each thread of a read's own is sent ahead: a thread goes on to its next batch without
 * waiting for the calling thread, and the calling thread frames while they parse.
 */
const QUEUED_PER_THREAD = 3;

/**
 * The number of threads to parse on: `workers` when given, else NDD_BENCH_READ_THREADS when
 * set, else every core (at most 8) for a large input and the calling thread for a small one.
 */
export function readThreadCount(r: Omit<ReadRequest, 'preload'>, env: NodeJS.ProcessEnv = process.env): number {
  if (r.workers !== undefined) return r.workers;
  const set = Number(env['NDD_BENCH_READ_THREADS']);
  if (Number.isInteger(set) && set >= 1) return set;
  if (r.worthThreads === false) return 1;
  return r.estimatedBytes >= PARALLEL_MIN_BYTES ? Math.min(availableParallelism(), 8) : 1;
}

/**
 * The threads of the last read stay for this long after it ends, so that reads in a row (the
 * tests, a corpus and its studies) start their threads once; they never keep the process alive.
 */
const IDLE_MS = 2000;
let idle: { readonly pool: WorkerPool; readonly timer: NodeJS.Timeout } | undefined;

function acquirePool(threads: number): WorkerPool {
  if (idle) {
    clearTimeout(idle.timer);
    const { pool } = idle;
    idle = undefined;
    if (pool.size === threads) return pool;
    void pool.close();
  }
  return new WorkerPool(threads, QUEUED_PER_THREAD);
}

/** A read that ran to its end leaves its threads idle; any other end (an error, a limit, an abort) stops them now. */
async function releasePool(pool: WorkerPool, completed: boolean): Promise<void> {
  if (!completed || idle) return pool.close();
  idle = { pool, timer: setTimeout(() => void releaseIdle(pool), IDLE_MS).unref() };
}

async function releaseIdle(pool: WorkerPool): Promise<void> {
  if (idle?.pool === pool) idle = undefined;
  await pool.close();
}

/** Threads of a read's own (kept idle between reads). */
export const ownReadThreads: ReadThreads = {
  lease(request) {
    const threads = readThreadCount(request);
    if (threads <= 1) return undefined;
    const pool = acquirePool(threads);
    pool.warm([request.preload]);
    return { pool, queued: threads * QUEUED_PER_THREAD, release: (completed) => releasePool(pool, completed) };
  },
};

/** A read's threads: `workers`' when it has several (used as they are, not stopped by the read), else its own. */
export function readThreadsOf(workers: WorkerPool): ReadThreads {
  if (workers.size <= 1) return ownReadThreads;
  return {
    lease(request) {
      if (readThreadCount(request) <= 1) return undefined;
      return { pool: workers, queued: workers.size * 2, release: async () => undefined };
    },
  };
}
