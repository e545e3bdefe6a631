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

/** A config's `corpus` section, as far as it chooses reader options. */
export interface ReaderOptionKeys {
  readonly format: string;
  readonly groups?: readonly string[] | undefined;
  readonly id_field?: string | undefined;
  readonly text_field?: string | undefined;
  readonly meta_fields?: readonly string[] | undefined;
}

/**
 * The reader options a config's `corpus` section gives (the mail corpus's `groups`, the fields
 * of JSONL records, WARC's id header). Only those given: the options are part of the corpus
 * cache's key, and a config that names none must keep the key it had.
 */
export function readerOptionsOf(corpus: ReaderOptionKeys): Record<string, unknown> {
  if (corpus.format === 'spamassassin') return corpus.groups ? { groups: corpus.groups } : {};
  const options: Record<string, unknown> = {};
  if (corpus.id_field !== undefined) options['id_field'] = corpus.id_field;
  if (corpus.text_field !== undefined) options['text_field'] = corpus.text_field;
  if (corpus.meta_fields !== undefined) options['meta_fields'] = corpus.meta_fields;
  return options;
}

/** The file or folder a reader reads for `path`: its own default corpus's, or the path itself. */
export function readerLocation(reader: CorpusReader | undefined, path: string): string {
  return reader?.location ? reader.location(path) : path;
}
