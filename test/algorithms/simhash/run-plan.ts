/**
 * Runs a contract plan two ways for the simhash tests (not a test file): its jobs one after
 * another in memory, the documents' meta as a side dataset, and its local kernel on real worker
 * threads (the local backend's pool); test/support/kernel-and-jobs.ts runs both.
 */
import type { Counters, DocumentSet, Plan, SideRecord } from '../../../contract/index.ts';
import { pairRows, runPlanJobs, runPlanKernel } from '../../support/kernel-and-jobs.ts';

export interface PlanResult {
  /** `a b score`, sorted */
  readonly rows: string[];
  readonly counters: Counters;
  /** dataset → records sorted by key, for each of the plan's output tables */
  readonly tables: Record<string, SideRecord[]>;
}

const byKey = (a: SideRecord, b: SideRecord): number => Number(a[0]) - Number(b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

export function runJobs(plan: Plan, docs: DocumentSet): PlanResult {
  const { datasets, counters } = runPlanJobs(plan, docs, { meta: true });
  const rows = (datasets.get(plan.output.pairs) ?? []).map(([k, v]) => `${k.replace(':', ' ')} ${v}`).sort();
  const tables = Object.fromEntries((plan.output.tables ?? []).map((t) => [t.dataset, [...(datasets.get(t.dataset) ?? [])].sort(byKey)]));
  return { rows, counters, tables };
}

export async function runKernel(plan: Plan, docs: DocumentSet, workers = 1, cache = new Map<string, Promise<unknown>>()): Promise<PlanResult> {
  const { result: r, counters } = await runPlanKernel(plan, docs, { workers, tasks: 'pool', cache });
  const tables = Object.fromEntries(Object.entries(r.tables ?? {}).map(([k, v]) => [k, [...v].sort(byKey)]));
  return { rows: pairRows(r.pairs), counters, tables };
}
