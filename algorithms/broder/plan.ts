import type { Plan, PlanContext } from '../../contract/index.ts';
import { MR1, MR2_OUTPUT, resemblanceJob, shinglePairsJob } from './jobs.ts';
import { broderKernel } from './kernel.ts';
import type { BroderParams } from './params.ts';

/**
 * MR#1 and MR#2 (Nikkhoo 3.1.1). The score is the (sampled) resemblance, an estimate of the
 * ground truth's; Broder has no threshold of its own, so a pair is called a near-duplicate at
 * `evaluate.threshold`. Its candidates are MR#1's output pairs (Figure 3.9).
 */
export function plan(params: BroderParams, ctx: PlanContext): Plan {
  return {
    jobs: [shinglePairsJob(params), resemblanceJob(ctx.minScore)],
    output: {
      pairs: MR2_OUTPUT,
      score: { kind: 'resemblance', floor: ctx.minScore },
      decisions: { kind: 'score-at-threshold' },
      candidates: { group: MR1, name: 'output_pairs' },
    },
    local: broderKernel(params, ctx.minScore),
  };
}
