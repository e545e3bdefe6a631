import type { AlgorithmAdapter } from '../../contract/index.ts';
import { broderParams } from './params.ts';
import { plan } from './plan.ts';

export const adapter: AlgorithmAdapter<typeof broderParams> = {
  name: 'broder',
  description: 'Broder shingling: Jaccard resemblance of shingle-fingerprint sets, with mod, SCT or adaptive sampling',
  citation:
    'Broder et al. 1997, Syntactic clustering of the Web; Nikkhoo 2010, sections 3.1-3.3; Ye et al. 2008, section 6',
  params: broderParams,
  plan,
  // Figure 3.9's names for the general candidate measures: MR#1's output pairs are Broder's candidates.
  measures: [
    { key: 'mr1_output_pairs', label: 'MR#1 output pairs', worse: 'higher', shows: 'candidate_pairs' },
    {
      key: 'mr1_reduction_pct',
      label: 'Reduction of MR#1 output pairs against the ground truth, %',
      worse: 'lower',
      shows: 'candidate_reduction_pct',
      summary: { header: 'mr1_red%', digits: 1 },
    },
  ],
  figures: [
    {
      id: 'mr1',
      title: 'MR#1 output pairs',
      note: 'Reduction of the output pairs of the first pair-producing job against the ground truth, % (Figure 3.9).',
      chart: {
        kind: 'bars-per-variant',
        title: 'Reduction of MR#1 output pairs (Figure 3.9)',
        measure: 'mr1_reduction_pct',
        axis: '% fewer output pairs than the ground truth',
        legend: 'reduction, %',
      },
    },
  ],
};
