/**
 * simhash's plan: four jobs (`jobs.ts`) and the kernel that computes the same in process
 * (`kernel.ts`). No zod here: the Hadoop job script bundles this file without it.
 */
import type { Plan, PlanContext } from '../../contract/plan.ts';
import { CLUSTERS, clustersJob, dfJob, fingerprintJob, HAMMING_JOB, hammingJob, PAIRS, SIGNATURES } from './jobs.ts';
import { simhashKernel } from './kernel.ts';
import type { SimhashParams } from './params.ts';
import { layoutFor } from './tables.ts';
import { weightingOptions } from './weights.ts';

export function plan(params: SimhashParams, ctx: PlanContext): Plan {
  const o = weightingOptions(params, ctx.seed);
  const dfFile = params.document_frequencies.from === 'file' ? params.document_frequencies.path : null;
  return {
    jobs: [...(dfFile === null ? [dfJob(o)] : []), fingerprintJob(o, { dfFile }), hammingJob(params.k, params.blocks), clustersJob()],
    output: {
      pairs: PAIRS,
      tables: [
        {
          dataset: SIGNATURES,
          folder: 'signatures',
          columns: ['doc_id', 'simhash'],
          description: "each document's 64-bit simhash in 16 hex digits (documents without features have none)",
        },
        {
          dataset: CLUSTERS,
          folder: 'clusters',
          columns: ['doc_id', 'cluster_size'],
          description: 'each document with a near-duplicate and the size of the cluster it leads, itself included (thesis §6.3; the others lead clusters of 1)',
        },
      ],
      score: { kind: 'other', why: 'simhash scores a pair 1 − d/64 for Hamming distance d: a bit agreement, not an estimate of resemblance' },
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: HAMMING_JOB, name: 'candidate_pairs' },
    },
    local: simhashKernel(o, dfFile, params.k, layoutFor(params.k, params.blocks)),
  };
}
