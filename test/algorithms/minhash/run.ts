/**
 * Runs a MinHash plan two ways for the tests (a helper, not a test file): its text jobs in
 * memory, one after the other as an engine would (`runJobInMemory`), and its kernel with a
 * context whose worker threads are plain calls in this thread. Both give sorted pair rows,
 * counters and table records.
 */
import { tmpdir } from 'node:os';
import type { Counters, DocumentSet, KernelContext, Plan, SideRecord } from '../../../contract/index.ts';
import { addCounters, DOCUMENTS, PairCollector } from '../../../contract/index.ts';
import { minhashParams } from '../../../algorithms/minhash/params.ts';
import { plan as minhashPlan } from '../../../algorithms/minhash/plan.ts';
import { transferables } from '../../../harness/mapreduce/local/transfer.ts';
import { runJobInMemory } from '../../support/run-job.ts';

export interface Outcome {
  /** `a b score`, sorted */
  readonly rows: string[];
  readonly counters: Counters;
  readonly tables: Record<string, readonly SideRecord[]>;
}

export function planFor(raw: unknown, seed = 1): Plan {
  return minhashPlan(minhashParams.parse(raw), { minScore: Number.MIN_VALUE, seed });
}

export function runJobs(plan: Plan, docs: DocumentSet): Outcome {
  const datasets = new Map<string, SideRecord[]>([[DOCUMENTS, docs.texts.map((t, i) => [String(i), t] as const)]]);
  const counters: Counters = {};
  for (const job of plan.jobs) {
    const input = job.inputs.flatMap((name) => datasets.get(name) ?? []);
    const side = Object.fromEntries((job.side ?? []).map((name) => [name, datasets.get(name) ?? []]));
    const r = runJobInMemory(job, input, side);
    datasets.set(job.output, r.records);
    addCounters(counters, r.counters);
  }
  const pairs = new PairCollector(docs.texts.length);
  for (const [k, v] of datasets.get(plan.output.pairs) ?? []) pairs.add(k, v, () => 'jobs');
  const p = pairs.result();
  const tables = Object.fromEntries((plan.output.tables ?? []).map((t) => [t.dataset, datasets.get(t.dataset) ?? []]));
  return { rows: rowsOf(p.a, p.b, p.score), counters, tables };
}

export async function runKernel(plan: Plan, docs: DocumentSet, parallelism = 2): Promise<Outcome> {
  if (!plan.local) throw new Error('plan has no kernel');
  const counters: Counters = {};
  const cache = new Map<string, Promise<unknown>>();
  const ctx: KernelContext = {
    docs,
    parallelism,
    memoryBudgetBytes: 2 ** 30,
    workDir: tmpdir(),
    signal: new AbortController().signal,
    // As the worker pool does: the payload is cloned, its own typed arrays moved (detached
    // here), shared ones shared; the result comes back the same way.
    async runInWorker<T>(moduleUrl: string, exportName: string, payload: unknown): Promise<T> {
      const mod = (await import(moduleUrl)) as Record<string, (p: unknown) => T>;
      const result = (mod[exportName] as (p: unknown) => T)(structuredClone(payload, { transfer: transferables(payload) }));
      return structuredClone(result, { transfer: transferables(result) });
    },
    cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
      let p = cache.get(key) as Promise<T> | undefined;
      if (!p) cache.set(key, (p = compute()));
      return p;
    },
    count(group, name, amount = 1) {
      if (amount === 0) return;
      addCounters(counters, { [group]: { [name]: amount } });
    },
    progress() {},
  };
  const r = await plan.local.run(ctx);
  return { rows: rowsOf(r.pairs.a, r.pairs.b, r.pairs.score), counters, tables: { ...(r.tables ?? {}) } };
}

export function rowsOf(a: Uint32Array, b: Uint32Array, score: Float64Array): string[] {
  const rows: string[] = [];
  for (let i = 0; i < a.length; i++) rows.push(`${a[i]} ${b[i]} ${score[i]}`);
  return rows.sort();
}
