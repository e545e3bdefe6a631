/** Reading a whole fixture with one corpus reader, collecting its documents and skips. */
import { fileURLToPath } from 'node:url';
import type { CorpusReader, Document, Skip } from '../../harness/corpus/types.ts';

const repo = new URL('../../', import.meta.url);

/** A file of ../shared/fixtures (the real-format fixtures beside the repository). */
export const sharedFixture = (name: string): string => fileURLToPath(new URL(`../shared/fixtures/${name}`, repo));

export async function readAll(reader: CorpusReader, path: string, options: Record<string, unknown> = {}): Promise<{ docs: Document[]; skips: Skip[] }> {
  const docs: Document[] = [];
  const skips: Skip[] = [];
  for await (const d of reader.read(path, options, { skip: (s) => skips.push(s) })) docs.push(d);
  return { docs, skips };
}

/** Text with every run of white space made one space, for comparing extracted text. */
export const words = (s: string | undefined): string | undefined => s?.replace(/\s+/g, ' ').trim();
