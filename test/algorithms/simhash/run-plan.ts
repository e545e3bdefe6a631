/**
 * Runs a contract plan two ways for the simhash tests (not a test file): its jobs one after
 * another in memory (`runJobInMemory`, as the engines run them), and its local kernel on real
 * worker threads (the local backend's pool).
 */
import { tmpdir } from 'node:os';
import { addCounters, DOCUMENTS, DOCUMENTS_META, encodeDocumentMeta, type Counters, type DocumentSet, type Plan, type SideRecord } from '../../../contract/index.ts';
import { WorkerPool } from '../../../harness/mapreduce/local/pool.ts';
import { runJobInMemory } from '../../support/run-job.ts';

export interface PlanResult {
  /** `a b score`, sorted */
  readonly rows: string[];
  readonly counters: Counters;
  /** dataset → records sorted by key, for each of the plan's output tables */
  readonly tables: Record<string, SideRecord[]>;
}

function documentRecords(docs: DocumentSet): Map<string, SideRecord[]> {
  const datasets = new Map<string, SideRecord[]>();
  datasets.set(DOCUMENTS, docs.texts.map((t, i) => [String(i), t] as const));
  const meta: SideRecord[] = [];
  docs.texts.forEach((_, i) => meta.push([String(i), encodeDocumentMeta(docs.meta?.[i])]));
  datasets.set(DOCUMENTS_META, meta);
  return datasets;
}

const byKey = (a: SideRecord, b: SideRecord): number => Number(a[0]) - Number(b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

export function runJobs(plan: Plan, docs: DocumentSet): PlanResult {
  const datasets = documentRecords(docs);
  const counters: Counters = {};
  for (const job of plan.jobs) {
    const input = job.inputs.flatMap((name) => datasets.get(name) ?? []);
    const side = Object.fromEntries((job.side ?? []).map((name) => [name, datasets.get(name) ?? []]));
    const out = runJobInMemory(job, input, side);
    datasets.set(job.output, out.records);
    addCounters(counters, out.counters);
  }
  const rows = (datasets.get(plan.output.pairs) ?? []).map(([k, v]) => `${k.replace(':', ' ')} ${v}`).sort();
  const tables = Object.fromEntries((plan.output.tables ?? []).map((t) => [t.dataset, [...(datasets.get(t.dataset) ?? [])].sort(byKey)]));
  return { rows, counters, tables };
}

export async function runKernel(plan: Plan, docs: DocumentSet, workers = 1, cache = new Map<string, Promise<unknown>>()): Promise<PlanResult> {
  if (!plan.local) throw new Error('the plan has no kernel');
  const pool = new WorkerPool(workers);
  const counters: Counters = {};
  try {
    const r = await plan.local.run({
      docs,
      runInWorker: (url, name, payload) => pool.run(url, name, payload),
      parallelism: workers,
      cached: <T>(key: string, compute: () => Promise<T>) => {
        if (!cache.has(key)) cache.set(key, compute());
        return cache.get(key) as Promise<T>;
      },
      count: (group, name, amount = 1) => addCounters(counters, { [group]: { [name]: amount } }),
      progress: () => {},
      memoryBudgetBytes: 1 << 30,
      workDir: tmpdir(),
      signal: new AbortController().signal,
    });
    const rows: string[] = [];
    for (let i = 0; i < r.pairs.a.length; i++) rows.push(`${r.pairs.a[i]} ${r.pairs.b[i]} ${r.pairs.score[i]}`);
    const tables = Object.fromEntries(Object.entries(r.tables ?? {}).map(([k, v]) => [k, [...v].sort(byKey)]));
    return { rows: rows.sort(), counters, tables };
  } finally {
    await pool.close();
  }
}
