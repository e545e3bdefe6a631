/**
 * The one maker of a `KernelContext` (contract/plan.ts): the local backend's, and the tests',
 * so that a kernel under test sees the context it runs with.
 */
import type { Counters, DocumentSet, KernelContext, StoreCodec, WorkerTask } from '../../contract/index.ts';
import { SharedCostScope, wholeCost, type CostClock, type SharedCosts } from './shared-costs.ts';
import type { ValueStore } from './stored-values.ts';

/** Where a kernel's worker tasks run, and whether work is worth handing them (runtime.ts, or the tests' own). */
export interface KernelTasks {
  /** the threads tasks may run on at once */
  readonly parallelism: number;
  run<P, R>(task: WorkerTask<P, R>, payload: P): Promise<R>;
  worthThreads(steps: number): boolean;
}

export interface KernelContextOptions {
  readonly docs: DocumentSet;
  readonly tasks: KernelTasks;
  readonly memoryBudgetBytes: number;
  readonly workDir: string;
  readonly signal: AbortSignal;
  progress?(phase: string, done?: number, total?: number): void;
  /** `cached` values, shared by the variants of a run over the same documents */
  readonly cache: Map<string, Promise<unknown>>;
  /** what computing each `cache` value cost (shared-costs.ts); default: a map of this kernel's own */
  readonly costs?: SharedCosts;
  /** what the costs are measured with (default: the process's clock and CPU time) */
  readonly clock?: CostClock;
  /** where `stored` values are kept across runs; none: computed */
  readonly store?: ValueStore;
  /**
   * `every-call`: a count() call creates its counter, whatever the amount, as in the text jobs
   * (default); `nonzero`: zero amounts are left out.
   */
  readonly counting?: 'every-call' | 'nonzero';
  /** where the counts go (default: a new object, the scope's `counters`) */
  readonly counters?: Counters;
}

/** A kernel's context and what it gathers while the kernel runs. */
export interface KernelScope {
  readonly ctx: KernelContext;
  readonly counters: Counters;
  /** what `stored` and `storedIfAny` replayed from the store instead of computing */
  readonly replayed: readonly string[];
  /** what `stored` computed (and a store keeps for later runs) */
  readonly computed: readonly string[];
  /** the cost of the shared values the kernel reused: what running it alone would have added */
  readonly shared: SharedCostScope;
}

/** The key under which `stored` keeps a value among the run's `cached` ones: what the run computed is read back by it (the local backend's `computedIfAny`). */
export function storedCacheKey(codec: Pick<StoreCodec<unknown>, 'key'>): string {
  return `stored:${codec.key}`;
}

export function makeKernelContext(o: KernelContextOptions): KernelScope {
  const counters: Counters = o.counters ?? {};
  const replayed: string[] = [];
  const computed: string[] = [];
  const { cache, store, docs } = o;
  const costs: SharedCosts = o.costs ?? new Map();
  const shared = new SharedCostScope(costs, o.clock);
  const cached = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let p = cache.get(key) as Promise<T> | undefined;
    shared.use(key, { reused: p !== undefined });
    if (!p) {
      p = shared.measure(key, compute);
      cache.set(key, p);
      // A failed computation is not kept: a later variant computes it again.
      p.catch(() => cache.delete(key));
    }
    return p;
  };
  const ctx: KernelContext = {
    docs,
    parallelism: o.tasks.parallelism,
    memoryBudgetBytes: o.memoryBudgetBytes,
    workDir: o.workDir,
    signal: o.signal,
    runInWorker: (task, payload) => o.tasks.run(task, payload),
    worthThreads: (steps) => o.tasks.worthThreads(steps),
    cached,
    stored: <T>(codec: StoreCodec<T>, compute: () => Promise<T>): Promise<T> =>
      cached(storedCacheKey(codec), async () => {
        if (!store) {
          computed.push(codec.describe);
          return compute();
        }
        const key = storedCacheKey(codec);
        const r = await store.get(docs, codec, compute, { cost: () => wholeCost(costs, key) });
        (r.replayed ? replayed : computed).push(codec.describe);
        if (r.replayed) shared.recordCost(r.cost ?? 'unknown');
        return r.value;
      }),
    storedIfAny: async <T>(codec: StoreCodec<T>): Promise<T | undefined> => {
      const inRun = cache.get(storedCacheKey(codec)) as Promise<T> | undefined;
      if (inRun) {
        shared.use(storedCacheKey(codec), { reused: true });
        return inRun;
      }
      const peeked = store?.peek(docs, codec);
      if (peeked === undefined) return undefined;
      replayed.push(codec.describe);
      return cached(storedCacheKey(codec), async () => {
        shared.recordCost(peeked.cost ?? 'unknown');
        return peeked.value;
      });
    },
    count(group, name, amount = 1) {
      if (amount === 0 && o.counting === 'nonzero') return;
      const g = (counters[group] ??= {});
      g[name] = (g[name] ?? 0) + amount;
    },
    progress: (phase, done, total) => o.progress?.(phase, done, total),
  };
  return { ctx, counters, replayed, computed, shared };
}
