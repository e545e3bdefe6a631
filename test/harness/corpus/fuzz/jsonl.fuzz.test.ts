/** The jsonl reader under fuzzing (test/support/fuzz/property.ts): every fixture that reads clean. */
import { fuzzReader } from '../../../support/fuzz/property.ts';
import { fileTarget, folderTarget, projectFixture, reorderLines } from '../../../support/fuzz/targets.ts';

const file = (rel: string) => fileTarget('jsonl', projectFixture(rel), reorderLines, { reorderKeepsDocs: true });

fuzzReader('jsonl', [
  file('corpus/small.jsonl'),
  file('corpus/duplicates.jsonl'),
  file('jsonl/good.jsonl'),
  file('jsonl/bad.jsonl'),
  file('jsonl/latin1.jsonl'),
  file('jsonl/good.jsonl.gz'),
  folderTarget('jsonl', projectFixture('jsonl/folder'), () => ({ reorder: reorderLines, reorderKeepsDocs: true })),
]);
