/** The html reader (files, .tar, .tar.gz) under fuzzing (test/support/fuzz/property.ts), CACM included. */
import { fuzzReader } from '../../../support/fuzz/property.ts';
import { fileTarget, folderTarget, loadFixture, projectFixture, reorderTarEntries, sharedFixture, tarPrefix, type FuzzTarget } from '../../../support/fuzz/targets.ts';

const tar = (path: string) => fileTarget('html', path, reorderTarEntries, { reorderKeepsDocs: true });

/** The first entries of the real CACM archive (all 3,204 are too many to read a thousand times). */
const cacm: FuzzTarget = {
  name: '../shared/fixtures/anserini/cacm.tar.gz (first 6 entries)',
  format: 'html',
  path: 'cacm.tar.gz',
  files: [{ rel: 'cacm.tar.gz', content: tarPrefix(loadFixture(sharedFixture('anserini/cacm.tar.gz')).content, 6), gzip: true, reorder: reorderTarEntries, reorderKeepsDocs: true }],
};

fuzzReader('html', [
  tar(projectFixture('html/site-gnu.tar.gz')),
  tar(projectFixture('html/site-pax.tar')),
  cacm,
  folderTarget('html', projectFixture('html/site'), () => ({})),
]);
