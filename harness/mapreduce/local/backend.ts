/**
 * The `local` backend: in process, on worker threads, with a bounded shuffle. A plan's typed-array
 * kernel runs when it has one (`engine: auto`), else its jobs run on the in-process engine.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { totalLength, type CorpusShape, type CounterRef, type Counters, type DocumentSet, type PairScorer, type ProcessTreeUsage, type StoreCodec } from '../../../contract/index.ts';
import { storedCacheKey } from '../../runtime/kernel-context.ts';
import { createRuntime, type Runtime } from '../../runtime/runtime.ts';
import type { SharedCosts, SharedCostScope } from '../../runtime/shared-costs.ts';
import type { PlanOutputs } from '../outputs.ts';
import type { Backend, BackendContext, BackendRunResult, VariantJob } from '../backend.ts';
import { readOutputFiles, runPlanJobs } from './engine.ts';
import { runPlanJobsParallel } from './parallel-engine.ts';

export interface LocalBackendOptions {
  /** the run's threads and stored values (runtime/runtime.ts), which the backend runs on and does not close */
  readonly runtime?: Runtime;
  /**
   * Without `runtime`: the threads of a runtime of the backend's own, started with their first
   * task, loading `preload` as they start, and closed with the backend (a backend outside a
   * run: the tests, the scripts).
   */
  readonly workers?: number;
  readonly preload?: readonly string[];
  readonly memoryMb: number;
  readonly pricePerVcpuHour: number;
  /**
   * `auto`: the kernel when the plan has one and its cost model fits `memoryMb`, else
   * the text jobs; `jobs`: always the text jobs (slower, for checking).
   */
  readonly engine: 'auto' | 'jobs';
  /** where worker threads rebuild a plan: a module exporting `findPlan(name)` (default algorithms/plans.ts) */
  readonly planModule?: string;
}

/** The shape of a document set, for a plan's cost model. */
export function corpusShape(docs: DocumentSet): CorpusShape {
  return { documents: docs.texts.length, chars: totalLength(docs.texts) };
}

export function createLocalBackend(opts: LocalBackendOptions): Backend {
  const own = opts.runtime ? undefined : createRuntime({ workers: opts.workers ?? 1, preload: opts.preload ?? [] });
  const runtime = opts.runtime ?? (own as Runtime);
  const workers = runtime.parallelism;
  // Kernel results shared across variants, per document set: a backend may see several.
  const caches = new WeakMap<DocumentSet, Map<string, Promise<unknown>>>();
  const costs = new WeakMap<DocumentSet, SharedCosts>();
  const budget = opts.memoryMb * 1024 * 1024;
  return {
    kind: 'local',
    async run(job: VariantJob, ctx: BackendContext): Promise<BackendRunResult> {
      ctx.signal.throwIfAborted();
      // An interrupt stops the worker threads at once; the run then fails with the abort's reason.
      const onAbort = (): void => void runtime.abort(ctx.signal.reason);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        return await runOnce(job, ctx);
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
    async scorer(job: VariantJob, ctx: BackendContext): Promise<PairScorer | undefined> {
      const make = job.plan.local?.scorer;
      return make ? make(kernelFor(ctx).ctx) : undefined;
    },
    // Read access to the same cache the kernels share: a failed value is absent, as it is to a later kernel.
    computedIfAny: async <T>(docs: DocumentSet, value: string | StoreCodec<T>): Promise<T | undefined> => {
      const held = caches.get(docs)?.get(typeof value === 'string' ? value : storedCacheKey(value)) as Promise<T> | undefined;
      return held?.catch(() => undefined);
    },
    // A runtime given is closed by whoever made it.
    close: async () => own?.close('finished'),
  };

  /** A kernel's context on `ctx`'s documents, with what earlier kernels on them computed. */
  function kernelFor(ctx: BackendContext): ReturnType<Runtime['kernelContext']> {
    const kernelDir = join(ctx.workDir, 'kernel');
    mkdirSync(kernelDir, { recursive: true });
    let cache = caches.get(ctx.docs);
    if (!cache) caches.set(ctx.docs, (cache = new Map()));
    let cost = costs.get(ctx.docs);
    if (!cost) costs.set(ctx.docs, (cost = new Map()));
    return runtime.kernelContext({
      docs: ctx.docs,
      memoryBudgetBytes: budget,
      workDir: kernelDir,
      signal: ctx.signal,
      progress: ctx.progress,
      cache,
      costs: cost,
    });
  }

  async function runOnce(job: VariantJob, ctx: BackendContext): Promise<BackendRunResult> {
    const counters: Counters = {};
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let outputs: PlanOutputs;
    let extra: Record<string, unknown> | undefined;
    let spillBytes: number;
    let processTree: ProcessTreeUsage | undefined;
    let warnings: readonly string[] = [];
    let uncounted: readonly CounterRef[] = [];
    let reused: ReturnType<SharedCostScope['reused']> = { wallS: 0, cpuS: 0 };
    const local = job.plan.local;
    const estimate = local ? local.memoryBytes(corpusShape(ctx.docs)) : 0;
    // An out-of-core kernel bounds its own memory: the text jobs are never its fallback for size.
    if (local && opts.engine === 'auto' && (estimate <= budget || local.outOfCore === true)) {
      const kernel = kernelFor(ctx);
      ctx.signal.throwIfAborted();
      const r = await local.run(kernel.ctx);
      for (const [g, names] of Object.entries(kernel.counters)) counters[g] = { ...names };
      const { replayed, computed } = kernel;
      reused = kernel.shared.reused();
      outputs = { pairs: r.pairs, ...(r.spans ? { spans: r.spans } : {}), ...(r.tables ? { tables: r.tables } : {}), ...(r.kept ? { kept: r.kept } : {}) };
      spillBytes = r.spillBytes ?? 0;
      processTree = r.processTree;
      warnings = r.warnings ?? [];
      uncounted = r.uncounted ?? [];
      extra = {
        engine: 'kernel',
        ...(replayed.length > 0 ? { replayed } : {}),
        ...(computed.length > 0 ? { computed } : {}),
        ...(r.processTree ? { process_tree: processTreeExtra(r.processTree) } : {}),
        ...(kernel.shared.reusedValues().length > 0 ? { borrowed: { values: kernel.shared.reusedValues(), ...(reused === 'unknown' ? { cost: 'unknown' } : { wall_s: reused.wallS, cpu_s: reused.cpuS }) } } : {}),
        ...(estimate > budget ? { out_of_core: `the in-memory kernel would need about ${Math.ceil(estimate / 2 ** 20)} MB, over memory_mb ${opts.memoryMb}` } : {}),
      };
    } else {
      const dir = join(ctx.workDir, 'jobs', job.variant);
      mkdirSync(dir, { recursive: true });
      const progress = (phase: string, done?: number, total?: number): void => ctx.progress(phase, done, total);
      // Both cores: map and reduce tasks on the worker threads; one thread: the same jobs in line.
      const r =
        workers > 1
          ? await runPlanJobsParallel(job, job.plan, ctx.docs, {
              workDir: dir,
              memoryBudgetBytes: budget,
              parallelism: workers,
              tasks: runtime,
              ...(opts.planModule ? { planModule: opts.planModule } : {}),
              signal: ctx.signal,
              progress,
            })
          : (() => {
              const one = runPlanJobs(job.plan, ctx.docs, { workDir: dir, memoryBudgetBytes: budget, signal: ctx.signal, progress });
              return { ...one, datasets: new Map([...one.datasets].map(([k, v]) => [k, [v]])) };
            })();
      for (const [g, names] of Object.entries(r.counters)) counters[g] = { ...names };
      outputs = readOutputFiles(job.variant, job.plan.output, r.datasets, ctx.docs.texts.length);
      spillBytes = folderBytes(dir);
      extra = {
        engine: 'jobs',
        shuffle_spills: r.spills,
        ...(local && opts.engine === 'auto'
          ? { why: `the kernel would need about ${Math.ceil(estimate / 2 ** 20)} MB, over memory_mb ${opts.memoryMb}` }
          : {}),
      };
    }
    const runtimeS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    // The process' own CPU leaves out its children's: a command's tree is added as measured.
    const cpuS = (cpu.user + cpu.system) / 1e6 + (processTree?.cpuS ?? 0);
    const price = (cpu: number): number => (cpu / 3600) * opts.pricePerVcpuHour;
    return {
      outputs,
      counters,
      runtimeS,
      cpuS,
      costUsd: price(cpuS),
      spillBytes,
      extra,
      ...(processTree ? { processTree } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(uncounted.length > 0 ? { uncounted } : {}),
      ...(reused === 'unknown'
        ? { standalone: 'unknown' as const }
        : reused.wallS !== 0 || reused.cpuS !== 0
          ? { standalone: { runtimeS: runtimeS + reused.wallS, cpuS: cpuS + reused.cpuS, costUsd: price(cpuS + reused.cpuS) } }
          : {}),
    };
  }
}

/** A command's cost as run.json's backend_extra shows it. */
function processTreeExtra(u: ProcessTreeUsage): Record<string, unknown> {
  return { wall_s: u.wallS, cpu_s: u.cpuS, peak_rss_mb: u.peakRssMb, peak_rss_method: u.peakRssMethod };
}

/** Bytes of the files under `dir`: what the text jobs wrote to disk (datasets and shuffle runs). */
function folderBytes(dir: string): number {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) bytes += statSync(join(e.parentPath, e.name)).size;
  }
  return bytes;
}
