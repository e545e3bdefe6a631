/**
 * Runs a MinHash plan two ways for the tests (a helper, not a test file; test/support/
 * kernel-and-jobs.ts runs both): its text jobs in memory, one after the other as an engine
 * would, and its kernel with a context whose worker threads are plain calls in this thread.
 * Both give sorted pair rows, counters and table records.
 */
import type { Counters, DocumentSet, Plan, SideRecord } from '../../../contract/index.ts';
import { minhashParams } from '../../../algorithms/minhash/params.ts';
import { plan as minhashPlan } from '../../../algorithms/minhash/plan.ts';
import { jobPairs, pairRows, runPlanJobs, runPlanKernel } from '../../support/kernel-and-jobs.ts';

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
  const out = runPlanJobs(plan, docs);
  const tables = Object.fromEntries((plan.output.tables ?? []).map((t) => [t.dataset, out.datasets.get(t.dataset) ?? []]));
  return { rows: pairRows(jobPairs(plan, out, docs.texts.length)), counters: out.counters, tables };
}

/** The kernel with worker tasks in this thread, their payloads and results cloned as the worker pool sends them. */
export async function runKernel(plan: Plan, docs: DocumentSet, parallelism = 2): Promise<Outcome> {
  const { result: r, counters } = await runPlanKernel(plan, docs, { workers: parallelism, tasks: 'cloned' });
  return { rows: rowsOf(r.pairs.a, r.pairs.b, r.pairs.score), counters, tables: { ...(r.tables ?? {}) } };
}

export function rowsOf(a: Uint32Array, b: Uint32Array, score: Float64Array): string[] {
  return pairRows({ a, b, score });
}
