/**
 * The one maker of a `KernelContext` (contract/plan.ts): the local backend's, and the tests',
 * so that a kernel under test sees the context it runs with.
 */
import type { Counters, DocumentSet, KernelContext, StoreCodec, WorkerTask } from '../../contract/index.ts';
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
  /** what computing each `cached` value cost, beside `cache`: a variant that reuses it borrows its cost */
  readonly costs?: Map<string, SharedCost>;
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

/** What computing a shared value cost the variant that computed it. */
export interface SharedCost {
  readonly wallS: number;
  readonly cpuS: number;
}

/** The shared values a variant reused from earlier variants of its run, and what they had cost. */
export interface Borrowed {
  wallS: number;
  cpuS: number;
  readonly values: string[];
}

/** A kernel's context and what it gathers while the kernel runs. */
export interface KernelScope {
  /**
   * What the kernel reused from earlier variants (`cached`, `stored` computed this run): added to
   * its own cost, its standalone cost, what it would cost run alone (values replayed from the
   * store of an earlier run are not in it: their cost was never measured here).
   */
  readonly borrowed: Borrowed;
  readonly ctx: KernelContext;
  readonly counters: Counters;
  /** what `stored` and `storedIfAny` replayed from the store instead of computing */
  readonly replayed: readonly string[];
  /** what `stored` computed (and a store keeps for later runs) */
  readonly computed: readonly string[];
}

export function makeKernelContext(o: KernelContextOptions): KernelScope {
  const counters: Counters = o.counters ?? {};
  const replayed: string[] = [];
  const computed: string[] = [];
  const { cache, store, docs } = o;
  const borrowed: Borrowed = { wallS: 0, cpuS: 0, values: [] };
  // Values this variant computed, or already borrowed: never counted twice.
  const own = new Set<string>();
  const cached = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let p = cache.get(key) as Promise<T> | undefined;
    if (!p) {
      own.add(key);
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      p = compute().then((value) => {
        const cpu = process.cpuUsage(cpu0);
        o.costs?.set(key, { wallS: (performance.now() - t0) / 1000, cpuS: (cpu.user + cpu.system) / 1e6 });
        return value;
      });
      cache.set(key, p);
      // A failed computation is not kept: a later variant computes it again.
      p.catch(() => {
        cache.delete(key);
        o.costs?.delete(key);
      });
    } else if (!own.has(key)) {
      own.add(key);
      const cost = o.costs?.get(key);
      if (cost) {
        borrowed.wallS += cost.wallS;
        borrowed.cpuS += cost.cpuS;
        borrowed.values.push(key);
      }
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
      cached(`stored:${codec.key}`, async () => {
        if (!store) {
          computed.push(codec.describe);
          return compute();
        }
        const r = await store.get(docs, codec, compute);
        (r.replayed ? replayed : computed).push(codec.describe);
        return r.value;
      }),
    storedIfAny: async <T>(codec: StoreCodec<T>): Promise<T | undefined> => {
      const inRun = cache.get(`stored:${codec.key}`) as Promise<T> | undefined;
      if (inRun) return inRun;
      const value = store?.peek(docs, codec);
      if (value === undefined) return undefined;
      replayed.push(codec.describe);
      return cached(`stored:${codec.key}`, async () => value);
    },
    count(group, name, amount = 1) {
      if (amount === 0 && o.counting === 'nonzero') return;
      const g = (counters[group] ??= {});
      g[name] = (g[name] ?? 0) + amount;
    },
    progress: (phase, done, total) => o.progress?.(phase, done, total),
  };
  return { ctx, counters, replayed, computed, borrowed };
}
