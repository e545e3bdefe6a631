import type { AlgorithmAdapter } from '../../contract/index.ts';
import { minhashExplain } from './explain.ts';
import { minhashParams } from './params.ts';
import { plan } from './plan.ts';

/**
 * MinHash-LSH. Its verified score is an estimate of the resemblance (the exact resemblance with
 * `verify: exact`) reported from the floor t up, and every reported pair is a decision: see
 * `plan.ts` for why the floor is the threshold, and why unverified scores are not resemblances.
 */
export const adapter: AlgorithmAdapter<typeof minhashParams> = {
  name: 'minhash',
  description: 'MinHash signatures (k-permutation, one-permutation with densification, b-bit) with banded LSH and verification',
  citation:
    'Broder 1997, On the resemblance and containment of documents; Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 3.4; ' +
    'Li and König 2010, b-Bit minwise hashing; Shrivastava 2017, Optimal densification for fast and accurate minwise hashing',
  params: minhashParams,
  plan,
  explain: minhashExplain,
};
