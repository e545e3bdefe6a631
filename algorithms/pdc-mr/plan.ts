import type { Plan, PlanContext } from '../../contract/index.ts';
import { MR3, PAIRS_OUTPUT, pdcMrJobs, SPANS_OUTPUT } from './jobs.ts';
import { pdcMrKernel } from './kernel.ts';
import type { PdcMrParams } from './params.ts';

export function plan(params: PdcMrParams, ctx: PlanContext): Plan {
  return {
    jobs: pdcMrJobs(params, ctx.minScore),
    output: {
      pairs: PAIRS_OUTPUT,
      spans: SPANS_OUTPUT,
      score: {
        kind: 'other',
        why: 'the share of the shorter document’s sentences covered by runs of near-duplicate sentences, not a resemblance of the two documents',
      },
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: MR3, name: 'document_pairs' },
    },
    local: pdcMrKernel(params, ctx.minScore),
  };
}
