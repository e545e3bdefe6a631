import type { AlgorithmAdapter } from '../../contract/index.ts';
import { imatchExplain } from './explain.ts';
import { imatchParams } from './params.ts';
import { plan } from './plan.ts';

export const adapter: AlgorithmAdapter<typeof imatchParams> = {
  name: 'imatch',
  description:
    'I-Match: SHA-1 of the sorted unique words whose normalized idf lies in a range; equal signatures are duplicates; K randomized lexicons (Kołcz) add K signatures. Score = share of the K+1 signatures shared',
  citation:
    'Chowdhury et al. 2002, Collection statistics for fast duplicate document detection; Kołcz, Chowdhury and Alspector 2004, lexicon randomization; Zhang et al. 2010 §4.1.2',
  params: imatchParams,
  plan,
  explain: imatchExplain,
};
