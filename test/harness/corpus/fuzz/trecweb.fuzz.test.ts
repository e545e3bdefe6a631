/** The trecweb reader under fuzzing (test/support/fuzz/property.ts): anserini's segment and the project's fixtures. */
import { fuzzReader } from '../../../support/fuzz/property.ts';
import { fileTarget, folderTarget, projectFixture, reorderByMarker, sharedFixture } from '../../../support/fuzz/targets.ts';

const DOCS = reorderByMarker(/<DOC>/g);
const file = (path: string) => fileTarget('trecweb', path, DOCS, { reorderKeepsDocs: true });

fuzzReader('trecweb', [
  file(sharedFixture('anserini/trecweb-segment1.txt')),
  file(projectFixture('trec/broken.trecweb')),
  file(projectFixture('trec/multi-member.trecweb.gz')),
  folderTarget('trecweb', projectFixture('trec/collection'), () => ({ reorder: DOCS, reorderKeepsDocs: true })),
]);
