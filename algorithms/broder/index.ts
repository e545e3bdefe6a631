import type { AlgorithmAdapter } from '../../contract/index.ts';
import { broderCalibration, broderTrials } from './derived.ts';
import { broderExplain } from './explain.ts';
import { MR1 } from './jobs.ts';
import { broderParams } from './params.ts';
import { plan } from './plan.ts';

export const adapter: AlgorithmAdapter<typeof broderParams> = {
  name: 'broder',
  description: 'Broder shingling: Jaccard resemblance of shingle-fingerprint sets, with mod, SCT or adaptive sampling',
  citation:
    'Broder et al. 1997, Syntactic clustering of the Web; Nikkhoo 2010, sections 3.1-3.3; Ye et al. 2008, section 6',
  params: broderParams,
  plan,
  trials: broderTrials,
  calibration: broderCalibration,
  explain: broderExplain,
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
    {
      // Ye et al.'s "shingles to process" (Figure 4): what the mappers' sampling leaves for the join.
      key: 'fingerprints_kept_pct',
      label: 'Fingerprints kept for the join, % of all',
      worse: 'higher',
      value: (self) => {
        const all = self.counters[MR1]?.fingerprints;
        return all === undefined || all === 0 ? null : (100 * (self.counters[MR1]?.fingerprints_kept ?? 0)) / all;
      },
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
    {
      id: 'adaptive-plans',
      title: 'Adaptive sampling from a precision target',
      note: 'Per precision target, the share of fingerprints processed when each size group gets the smallest ratio that meets the target on the calibration runs, against one ratio for all groups (Ye et al. Figure 4; adaptive-plans/<variant>.csv).',
      chart: {
        kind: 'lines-per-table',
        title: 'Fingerprints processed against the precision target (Figure 4)',
        folder: 'adaptive-plans',
        x: 'precision_target',
        series: ['fingerprints_pct_adaptive', 'fingerprints_pct_uniform'],
        xAxis: 'precision target',
        axis: '% of fingerprints processed',
      },
    },
  ],
};
