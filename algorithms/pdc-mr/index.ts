import type { AlgorithmAdapter } from '../../contract/index.ts';
import { pdcMrParams } from './params.ts';
import { plan } from './plan.ts';
import { pdcMrExplain } from './explain.ts';

export const adapter: AlgorithmAdapter<typeof pdcMrParams> = {
  name: 'pdc-mr',
  description: 'PDC-MR: partial duplicates as runs of near-duplicate sentences, with their spans (three MapReduce jobs)',
  citation: 'Zhang, Zhang, Yu and Huang 2010, Efficient partial-duplicate detection based on sequence matching (SIGIR), section 4',
  params: pdcMrParams,
  plan,
  explain: pdcMrExplain,
};
