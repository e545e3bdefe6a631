/**
 * Reading on worker threads gives what reading on one thread gives: the same documents, the
 * same skips (files, offsets, ids, in the same order), the same error at the same place, with
 * `strict` and `limit` as well. The expected values are the sequential reader's own output,
 * which the reader tests check against hand-made fixtures.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { newCorpusStats, readCorpus, type ReadOptions } from '../../../harness/corpus/read.ts';
import type { Document } from '../../../harness/corpus/types.ts';
import { sharedFixture } from '../../support/reader.ts';

const here = (p: string): string => fileURLToPath(new URL(`../../fixtures/${p}`, import.meta.url));

interface Outcome {
  docs: Document[];
  stats: ReturnType<typeof newCorpusStats>;
  error?: string;
}

async function readWith(workers: number, opts: ReadOptions): Promise<Outcome> {
  const stats = newCorpusStats();
  const docs: Document[] = [];
  try {
    for await (const d of readCorpus({ ...opts, workers }, stats)) docs.push(d);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { docs, stats, error: `${err.name} ${err.code ?? ''}: ${err.message}` };
  }
  return { docs, stats };
}

/** One case a kind of record and a kind of trouble (each read starts its threads: seconds under tsx). */
const cases: [string, string][] = [
  ['spamassassin', here('mail')], // files read on the parsing thread, a recovered charset
  ['jsonl', here('jsonl/bad.jsonl')], // skips reported while parsing
  ['jsonl', here('jsonl/corrupt.jsonl.gz')], // an error while framing
  ['html', here('html/site')], // files of a folder, a skip while framing
  ['html', here('html/site-gnu.tar.gz')], // records' bytes packed into the batch
  ['trecweb', here('trec/broken.trecweb')], // framing and parsing skips interleaved
  ['warc', here('trec/clueweb09-style.warc.gz')], // records carrying a Map of headers
  ['warc', sharedFixture('warcio-js')], // several files, a wrong Content-Length
];

describe('reading on worker threads', () => {
  it.each(cases)('%s %s: the same documents, skips and errors as on one thread', async (format, path) => {
    const one = await readWith(1, { format, path });
    const two = await readWith(2, { format, path });
    expect(two).toEqual(one);
    expect(one.docs.length + one.stats.skips.length + (one.error ? 1 : 0)).toBeGreaterThan(0);
  });

  it('stops a strict read at the same skip', async () => {
    const path = here('trec/broken.trecweb');
    const one = await readWith(1, { format: 'trecweb', path, strict: true });
    const two = await readWith(2, { format: 'trecweb', path, strict: true });
    expect(one.error).toMatch(/strict mode/);
    expect(two).toEqual(one);
  });

  it('stops at the same document with a limit, having counted the same skips', async () => {
    const path = here('trec/broken.trecweb');
    const one = await readWith(1, { format: 'trecweb', path, limit: 2 });
    const two = await readWith(2, { format: 'trecweb', path, limit: 2 });
    expect(one.docs).toHaveLength(2);
    expect(two).toEqual(one);
  });

  describe('an error thrown while a record is parsed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallel-read-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is thrown after the documents before it, with its code, on either path', async () => {
      // A listed message that is a directory: reading it fails with EISDIR (not a counted skip).
      cpSync(here('mail'), join(dir, 'mail'), { recursive: true });
      const list = JSON.parse(
        JSON.stringify(['easy-ham-1/00001.1542a7b2703ec609ec7455bd102f83a9.txt', 'spam-1/00009.0123456789abcdef0123456789abcdef.txt', 'spam-1/00001.163d512d32f6a7c103ffdab59c0b686a.txt']),
      ) as string[];
      writeFileSync(join(dir, 'mail', 'data', 'file_list.json'), JSON.stringify(list));
      mkdirSync(join(dir, 'mail', 'data', list[1]!));
      const one = await readWith(1, { format: 'spamassassin', path: join(dir, 'mail') });
      const two = await readWith(2, { format: 'spamassassin', path: join(dir, 'mail') });
      expect(one.docs.map((d) => d.id)).toEqual(['easy-ham-1/00001']);
      expect(one.error).toMatch(/^Error EISDIR: /);
      expect(two).toEqual(one);
    });
  });
});
