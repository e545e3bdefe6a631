/** Where worker threads and the job script find the test detectors' plans (and the built-in ones, for the ground truth). */
import { findPlan as findBuiltin } from '../../../algorithms/plans.ts';
import type { PlanFunction } from '../../../contract/index.ts';
import { planExactDuplicates } from './exact-duplicates.ts';
import { planSharedLines } from './shared-lines.ts';

const own: Record<string, PlanFunction> = {
  'exact-duplicates': planExactDuplicates as PlanFunction,
  'shared-lines': planSharedLines as PlanFunction,
};

export async function findPlan(name: string): Promise<PlanFunction | undefined> {
  return own[name] ?? (await findBuiltin(name));
}
