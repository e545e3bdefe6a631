/**
 * I-Match's plan (Chowdhury et al. 2002, with Kołcz et al. 2004's randomized lexicons): four
 * MapReduce jobs (`jobs.ts`) and the in-process kernel that gives the same output (`kernel.ts`).
 * No zod here: the Hadoop job script bundles this file.
 */
import type { Plan, PlanContext } from '../../contract/index.ts';
import { collisionsJob, COLLISIONS, documentFrequenciesJob, PAIRS, pairsJob, SIGNATURES, signaturesJob } from './jobs.ts';
import { imatchKernel } from './kernel.ts';
import type { ImatchParams } from './params.ts';

export const SCORE_WHY =
  'I-Match decides by equal signatures; its score is the share of the K+1 lexicon signatures a pair shares ' +
  '(1 when K = 0), not an estimate of resemblance';

export function plan(params: ImatchParams, ctx: PlanContext): Plan {
  const signatures = params.extra_lexicons + 1;
  return {
    jobs: [documentFrequenciesJob(), signaturesJob(params, ctx.seed), collisionsJob(), pairsJob(signatures, ctx.minScore)],
    output: {
      pairs: PAIRS,
      tables: [
        {
          dataset: SIGNATURES,
          folder: 'signatures',
          columns: ['doc_id', ...Array.from({ length: signatures }, (_, j) => `signature_${j}`)],
          description:
            'I-Match signatures: SHA-1 (hex) of the sorted unique lexicon words, one column per lexicon (0 the base; "-" where a lexicon holds none); documents with no base-lexicon word are absent',
        },
      ],
      score: { kind: 'other', why: SCORE_WHY },
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: COLLISIONS, name: 'collisions' },
    },
    local: imatchKernel(params, ctx),
  };
}
