import type { Plan, PlanContext } from '../../contract/index.ts';
import { CANDIDATES_JOB, CLUSTERS, minhashJobs } from './jobs.ts';
import { minhashKernel } from './kernel.ts';
import type { MinhashParams } from './params.ts';
import { resolveSettings } from './settings.ts';

/**
 * MinHash signatures, banded LSH, verification and clusters (`jobs.ts`), with the typed-array
 * kernel (`kernel.ts`).
 *
 * What the output means:
 * - Verified (estimated or exact Jaccard): the score estimates the ground truth's resemblance
 *   (exactly equals it, verified exactly) and the detector decides by it, so the pairs reported
 *   are those scoring at least the threshold t, each a decision (`every-reported-pair`), and the
 *   score floor is t: below t the detector reports nothing by design, and a pair of the ground
 *   truth at or above t that banding missed counts as a score of 0 (its error is the price of
 *   the missed candidate), while pairs below t say nothing about MinHash.
 * - Unverified: every candidate is a decision; its score is the share of bands in which it
 *   collided, a vote on another scale than the resemblance.
 * The candidates are the distinct pairs the band buckets produced, before verification.
 */
export function plan(params: MinhashParams, ctx: PlanContext): Plan {
  const s = resolveSettings(params, ctx);
  const { jobs, pairs } = minhashJobs(s);
  return {
    jobs,
    output: {
      pairs,
      tables: [
        {
          dataset: CLUSTERS,
          folder: 'clusters',
          columns: ['doc_id', 'cluster', 'cluster_size'],
          description: 'connected components of the near-duplicate pairs: each document, the smallest document index of its cluster, and its size',
        },
      ],
      clusters: CLUSTERS,
      // The clusters are the connected components of the pairs it reports (jobs.ts, clustersJob).
      clusterLinks: 'decided pairs',
      score:
        s.verify === 'none'
          ? { kind: 'other', why: 'unverified LSH candidates: the score is the share of bands in which the pair collided, not a resemblance estimate' }
          : { kind: 'resemblance', floor: s.floor },
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: CANDIDATES_JOB, name: 'candidate_pairs' },
    },
    local: minhashKernel(s),
  };
}
