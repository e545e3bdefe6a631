import type { AlgorithmAdapter } from '../../contract/index.ts';
import { spotSigsParams } from './params.ts';
import { plan } from './plan.ts';
import { spotSigsExplain } from './explain.ts';

export const adapter: AlgorithmAdapter<typeof spotSigsParams> = {
  name: 'spotsigs',
  description: 'SpotSigs: documents as sets of spot signatures (antecedent + chain), Jaccard at least tau, length-filtered',
  citation: 'Theobald, Siddharth and Paepcke 2008, SpotSigs: robust and efficient near duplicate detection in large web collections (SIGIR)',
  params: spotSigsParams,
  plan,
  explain: spotSigsExplain,
};
