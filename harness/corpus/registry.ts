import { htmlFilesReader } from './html-files.ts';
import { jsonlReader } from './jsonl.ts';
import { spamAssassinReader } from './spamassassin.ts';
import { trecReader } from './trec.ts';
import { trecWebReader } from './trecweb.ts';
import type { CorpusReader } from './types.ts';
import { warcReader } from './warc.ts';

/** Every corpus format `corpus.format` accepts. A new format is one import and one line here. */
export const corpusReaders: readonly CorpusReader[] = [
  spamAssassinReader,
  jsonlReader,
  trecWebReader,
  trecReader,
  warcReader,
  htmlFilesReader,
];

export function findCorpusReader(format: string): CorpusReader | undefined {
  return corpusReaders.find((r) => r.format === format);
}

export function corpusFormats(): string[] {
  return corpusReaders.map((r) => r.format);
}

/** The reader options a config's `corpus` section gives (the mail corpus's `groups`). */
export function readerOptionsOf(corpus: { readonly format: string; readonly groups?: readonly string[] | undefined }): Record<string, unknown> {
  return corpus.format === 'spamassassin' && corpus.groups ? { groups: corpus.groups } : {};
}

/** The file or folder a reader reads for `path`: its own default corpus's, or the path itself. */
export function readerLocation(reader: CorpusReader | undefined, path: string): string {
  return reader?.location ? reader.location(path) : path;
}
