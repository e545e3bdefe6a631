/**
 * Every algorithm's plan function by name, without its parameter schema. The job script that
 * Hadoop Streaming starts for every task (harness/mapreduce/streaming/task-main.ts) bundles
 * this instead of `registry.ts`, so a task process starts without loading zod: on the
 * quickstart that is a tenth of a second for each of some four hundred processes.
 * Adding an algorithm: one line here and one in `registry.ts` (a test checks they agree).
 */
import { planBroder } from './broder/plan.ts';
import type { Plan, PlanContext } from './types.ts';

export type PlanFunction = (params: never, ctx: PlanContext) => Plan;

export const plans: Readonly<Record<string, PlanFunction>> = {
  broder: planBroder,
};

export function findPlan(name: string): { plan: PlanFunction } | undefined {
  const plan = plans[name];
  return plan ? { plan } : undefined;
}
