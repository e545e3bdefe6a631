import type { AlgorithmAdapter } from '../types.ts';
import { broderParams } from './params.ts';
import { planBroder } from './plan.ts';

export const broder: AlgorithmAdapter<typeof broderParams> = {
  name: 'broder',
  description: 'Broder shingling: Jaccard resemblance of shingle-fingerprint sets, with mod, SCT or adaptive sampling',
  citation:
    'Broder et al. 1997, Syntactic clustering of the Web; Nikkhoo 2010, sections 3.1-3.3; Ye et al. 2008, section 6',
  params: broderParams,
  plan: planBroder,
};
