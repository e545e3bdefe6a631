import type { AlgorithmAdapter } from '../../contract/index.ts';
import { explain } from './explain.ts';
import { externalParams } from './params.ts';
import { plan } from './plan.ts';

export const adapter: AlgorithmAdapter<typeof externalParams> = {
  name: 'external',
  description: 'a detector that is a command in any language: it reads the corpus as JSONL and writes pairs or clusters by document id',
  citation: 'none: the command\'s own (see its program)',
  params: externalParams,
  plan,
  explain,
  fileParams: [['program'], ['interpreter'], ['file']],
  // `bench score FILE`: the file read as a command's output would be.
  paramsForFile: (file, d) => ({ file, output: d.format, score: d.score, score_floor: d.scoreFloor, decisions: d.decisions }),
  // datasketch and text-dedup are different methods, though both are `external`.
  seriesPerRun: true,
};
