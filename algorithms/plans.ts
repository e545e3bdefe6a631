/**
 * Every detector's plan function by name, without its parameter schema: the job script that
 * Hadoop Streaming starts for every task (harness/mapreduce/streaming/task-main.ts) bundles this
 * instead of `registry.ts`, so a task process starts without loading zod (on the quickstart a
 * tenth of a second for each of some four hundred processes). The folders come from
 * `detectors.ts`; the bundler includes every `algorithms/<folder>/plan.ts` it can match.
 */
import type { PlanFunction } from '../contract/index.ts';
import { DETECTORS } from './detectors.ts';

export async function findPlan(name: string): Promise<PlanFunction | undefined> {
  if (!DETECTORS.includes(name)) return undefined;
  const m = (await import(`./${name}/plan.ts`)) as { plan: PlanFunction };
  return m.plan;
}
