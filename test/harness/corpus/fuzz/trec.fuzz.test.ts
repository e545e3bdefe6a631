/** The trec (TREC disks SGML) reader under fuzzing (test/support/fuzz/property.ts). */
import { fuzzReader } from '../../../support/fuzz/property.ts';
import { fileTarget, projectFixture, reorderByMarker, sharedFixture } from '../../../support/fuzz/targets.ts';

const DOCS = reorderByMarker(/<DOC[>\s]/g);
const file = (path: string) => fileTarget('trec', path, DOCS, { reorderKeepsDocs: true });

fuzzReader('trec', [file(sharedFixture('anserini/trec-disks-segment1.txt')), file(projectFixture('trec/disks.trec'))]);
