import type { Plan, PlanContext } from '../types.ts';
import { MR2_OUTPUT, resemblanceJob, shinglePairsJob } from './jobs.ts';
import { broderKernel, FEATURES_MODULE, JOIN_MODULE } from './kernel.ts';
import type { BroderParams } from './params.ts';

export function planBroder(params: BroderParams, ctx: PlanContext): Plan {
  return {
    jobs: [shinglePairsJob(params), resemblanceJob(ctx.minScore)],
    output: { pairs: MR2_OUTPUT },
    local: broderKernel(params, ctx.minScore),
    localModules: [FEATURES_MODULE, JOIN_MODULE],
  };
}
