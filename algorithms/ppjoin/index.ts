import type { AlgorithmAdapter } from '../../contract/index.ts';
import { ppjoinExplain } from './explain.ts';
import { ppjoinParams } from './params.ts';
import { plan } from './plan.ts';

export const adapter: AlgorithmAdapter<typeof ppjoinParams> = {
  name: 'ppjoin',
  description: 'PPJoin/PPJoin+ exact Jaccard join (prefix, position, suffix, signature filters), on MapReduce as MapDupReducer',
  citation:
    'Xiao, Wang, Lin, Yu 2008, Efficient similarity joins for near duplicate detection (WWW); Wang et al. 2010, MapDupReducer (SIGMOD demo)',
  params: ppjoinParams,
  plan,
  explain: ppjoinExplain,
};
