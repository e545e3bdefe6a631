/**
 * Runs a plan two ways in memory: its text jobs one after another (each as the engines run a
 * job: map, combine, sort, reduce), and its kernel with an in-process context whose counters,
 * like the local backend's, ignore zero amounts. Both return sorted rows to compare.
 */
import { tmpdir } from 'node:os';
import { addCounters, PairCollector, SpanCollector, type Counters, type DocumentSet, type KernelContext, type Plan, type SideRecord, type Span } from '../../../contract/index.ts';
import { runJobInMemory } from '../../support/run-job.ts';

export interface Outcome {
  readonly pairs: string[];
  readonly spans: string[];
  readonly counters: Counters;
}

export function spanRow(s: Span): string {
  const u = s.units ? ` ${s.units.aStart} ${s.units.bStart} ${s.units.length}` : '';
  return `${s.a} ${s.b} ${s.aStart} ${s.aEnd} ${s.bStart} ${s.bEnd}${u}`;
}

export function runJobs(plan: Plan, docs: DocumentSet): Outcome & { datasets: Map<string, SideRecord[]> } {
  const datasets = new Map<string, SideRecord[]>([['documents', docs.texts.map((t, i) => [String(i), t] as const)]]);
  const counters: Counters = {};
  for (const job of plan.jobs) {
    const input = job.inputs.flatMap((d) => datasets.get(d) ?? []);
    const side = Object.fromEntries((job.side ?? []).map((d) => [d, datasets.get(d) ?? []]));
    const r = runJobInMemory(job, input, side);
    datasets.set(job.output, r.records);
    addCounters(counters, r.counters);
  }
  const pairs = new PairCollector(docs.texts.length);
  for (const [k, v] of datasets.get(plan.output.pairs) ?? []) pairs.add(k, v, () => plan.output.pairs);
  const spans = new SpanCollector(docs.texts.length);
  for (const [k, v] of datasets.get(plan.output.spans ?? '') ?? []) spans.add(k, v, () => 'spans');
  const p = pairs.result();
  return {
    pairs: [...p.a].map((a, i) => `${a} ${p.b[i]} ${p.score[i]}`).sort(),
    spans: spans.result().map(spanRow).sort(),
    counters,
    datasets,
  };
}

export async function runKernel(plan: Plan, docs: DocumentSet, parallelism = 2): Promise<Outcome> {
  if (!plan.local) throw new Error('the plan has no kernel');
  const counters: Counters = {};
  const cache = new Map<string, Promise<unknown>>();
  const ctx: KernelContext = {
    docs,
    async runInWorker<T>(moduleUrl: string, exportName: string, payload: unknown): Promise<T> {
      const mod = (await import(moduleUrl)) as Record<string, (p: unknown) => T>;
      return (mod[exportName] as (p: unknown) => T)(payload);
    },
    parallelism,
    cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (!cache.has(key)) cache.set(key, compute());
      return cache.get(key) as Promise<T>;
    },
    count(group, name, amount = 1) {
      if (amount === 0) return;
      const g = (counters[group] ??= {});
      g[name] = (g[name] ?? 0) + amount;
    },
    progress() {},
    memoryBudgetBytes: 1 << 30,
    // This kernel writes no temporary files.
    workDir: tmpdir(),
    signal: new AbortController().signal,
  };
  const r = await plan.local.run(ctx);
  return {
    pairs: [...r.pairs.a].map((a, i) => `${a} ${r.pairs.b[i]} ${r.pairs.score[i]}`).sort(),
    spans: (r.spans ?? []).map(spanRow).sort(),
    counters,
  };
}
