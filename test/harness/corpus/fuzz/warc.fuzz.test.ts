/** The warc reader under fuzzing (test/support/fuzz/property.ts): anserini's, warcio's and the project's WARC files. */
import { fuzzReader } from '../../../support/fuzz/property.ts';
import { fileTarget, projectFixture, reorderByMarker, sharedFixture } from '../../../support/fuzz/targets.ts';

const RECORDS = reorderByMarker(/^WARC\/\d+\.\d+\r?$/gm);
const file = (path: string) => fileTarget('warc', path, RECORDS, { reorderKeepsDocs: true });

fuzzReader('warc', [
  file(sharedFixture('anserini/clueweb09-segment1.warc.gz')),
  file(sharedFixture('anserini/clueweb12-segment1.warc.gz')),
  file(sharedFixture('anserini/commoncrawl-segment1.warc.gz')),
  file(sharedFixture('warcio-js/example.warc.gz')),
  file(sharedFixture('warcio-js/example-iana.org-chunked.warc')),
  file(sharedFixture('warcio-js/example-bad-length.warc')),
  file(sharedFixture('warcio-js/example-wget-bad-target-uri.warc.gz')),
  file(sharedFixture('warcio-js/example-url-agnostic-revisit.warc.gz')),
  file(sharedFixture('warcio-js/redirect.warc')),
  file(projectFixture('trec/clueweb09-style.warc.gz')),
  file(projectFixture('trec/truncated-record.warc')),
]);
