/**
 * One variant on a fresh local backend (2 threads) from documents in memory, timed as the
 * computation: the worker threads first load the kernel's modules and run it on two documents,
 * as they do while `bench run` reads the corpus. `before` runs untimed on the same backend first,
 * so that its cached work (the fingerprint features) is reused, as in a run of several variants.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlgorithmAdapter, DocumentSet } from '../../contract/index.ts';
import { createLocalBackend } from '../../harness/mapreduce/local/backend.ts';

export interface VariantTiming {
  readonly wallS: number;
  /** CPU of the whole process (worker threads included) during the timed run */
  readonly cpuS: number;
}

export async function timeVariant(
  a: AlgorithmAdapter,
  raw: unknown,
  docs: DocumentSet,
  opts: { readonly memoryMb?: number; readonly seed?: number; readonly before?: { readonly adapter: AlgorithmAdapter; readonly raw: unknown } } = {},
): Promise<VariantTiming> {
  const params = a.params.parse(raw);
  const ctx = { minScore: Number.MIN_VALUE, seed: opts.seed ?? 0 };
  const preload = (a.plan(params, ctx).local?.workerModules ?? []).map((m) => m.url);
  const backend = createLocalBackend({ workers: 2, memoryMb: opts.memoryMb ?? 1024, pricePerVcpuHour: 0.0504, engine: 'auto', preload });
  const work = mkdtempSync(join(tmpdir(), 'bench-ci-'));
  const run = (name: string, adapter: AlgorithmAdapter, p: unknown, set: DocumentSet) =>
    backend.run(
      { variant: name, algorithm: adapter.name, params: p, ...ctx, plan: adapter.plan(p, ctx) },
      { docs: set, workDir: work, signal: new AbortController().signal, progress() {} },
    );
  try {
    await run('warm', a, params, { ids: ['a', 'b'], texts: ['warm up. a short text here.', 'warm up. a short text here.'] });
    if (opts.before) await run('before', opts.before.adapter, opts.before.adapter.params.parse(opts.before.raw), docs);
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await run('timed', a, params, docs);
    const c = process.cpuUsage(c0);
    return { wallS: (performance.now() - w0) / 1000, cpuS: (c.user + c.system) / 1e6 };
  } finally {
    await backend.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The best (smallest) wall and CPU time of `reps` repetitions. */
export async function bestOf(reps: number, f: () => Promise<VariantTiming>): Promise<VariantTiming> {
  let best: VariantTiming = { wallS: Infinity, cpuS: Infinity };
  for (let i = 0; i < reps; i++) {
    const t = await f();
    best = { wallS: Math.min(best.wallS, t.wallS), cpuS: Math.min(best.cpuS, t.cpuS) };
  }
  return best;
}
