import type { Plan, PlanContext } from '../../contract/index.ts';
import { MR2, PAIRS_OUTPUT, spotSigsJobs } from './jobs.ts';
import { spotSigsKernel } from './kernel.ts';
import type { SpotSigsParams } from './params.ts';

export function plan(params: SpotSigsParams, ctx: PlanContext): Plan {
  return {
    jobs: spotSigsJobs(params, ctx.minScore),
    output: {
      pairs: PAIRS_OUTPUT,
      score: {
        kind: 'other',
        why: 'the Jaccard of spot-signature sets, a resemblance of other features than the ground truth’s shingles',
      },
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: MR2, name: 'distinct_pairs' },
    },
    local: spotSigsKernel(params, ctx.minScore),
  };
}
