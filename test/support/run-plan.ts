/** Runs an adapter's plan on the local backend, kernel or text jobs, and returns sorted rows. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findAdapter } from '../../algorithms/registry.ts';
import type { Counters, DocumentSet, PairList } from '../../contract/index.ts';
import { createLocalBackend } from '../../harness/mapreduce/local/backend.ts';
import type { PlanOutputs } from '../../harness/mapreduce/outputs.ts';

export interface PlanRun {
  readonly pairs: PairList;
  readonly counters: Counters;
  /** `a b score` by document index, sorted */
  readonly rows: string[];
  /** pairs, spans and tables as the backend returned them */
  readonly outputs: PlanOutputs;
}

export async function runPlan(
  algorithm: string,
  rawParams: unknown,
  docs: DocumentSet,
  opts: { engine: 'auto' | 'jobs'; workers?: number; memoryMb?: number; minScore?: number; seed?: number },
): Promise<PlanRun> {
  const adapter = await findAdapter(algorithm);
  if (!adapter) throw new Error(`no adapter ${algorithm}`);
  const params = adapter.params.parse(rawParams);
  const minScore = opts.minScore ?? Number.MIN_VALUE;
  const ctx = { minScore, seed: opts.seed ?? 0 };
  const plan = adapter.plan(params, ctx);
  const backend = createLocalBackend({
    workers: opts.workers ?? 1,
    memoryMb: opts.memoryMb ?? 1024,
    pricePerVcpuHour: 0.05,
    engine: opts.engine,
  });
  const workDir = mkdtempSync(join(tmpdir(), 'ndd-test-'));
  try {
    const r = await backend.run(
      { variant: 'test', algorithm, params, ...ctx, plan },
      { docs, workDir, signal: new AbortController().signal, progress: () => {} },
    );
    return { pairs: r.outputs.pairs, counters: r.counters, rows: rowsOf(r.outputs.pairs), outputs: r.outputs };
  } finally {
    await backend.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

export function rowsOf(p: PairList): string[] {
  const rows: string[] = [];
  for (let i = 0; i < p.a.length; i++) rows.push(`${p.a[i]} ${p.b[i]} ${p.score[i]}`);
  return rows.sort();
}
