import type { Plan, PlanContext } from '../../contract/index.ts';
import { PAIRS, ppjoinJobs } from './jobs.ts';
import { ppjoinKernel } from './kernel.ts';
import type { PPJoinParams } from './params.ts';
import { C, GROUP, joinSettings } from './settings.ts';

export function plan(params: PPJoinParams, ctx: PlanContext): Plan {
  const settings = joinSettings(params, ctx.minScore);
  const spec = { shingle: params.shingle, fingerprint: params.fingerprint };
  return {
    jobs: ppjoinJobs(spec, settings),
    output: {
      pairs: PAIRS,
      // The exact Jaccard of every pair at or above t: the ground truth's RR wherever it reports.
      score: { kind: 'resemblance', floor: settings.t },
      // A join decides at its own threshold: the pairs it reports are its near-duplicates.
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: GROUP, name: C.afterSignature },
    },
    local: ppjoinKernel(spec, settings),
  };
}
