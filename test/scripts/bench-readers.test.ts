import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { newCorpusStats, readCorpus } from '../../harness/corpus/read.ts';
import type { Document } from '../../harness/corpus/types.ts';
import { writeBenchFiles } from '../../scripts/bench-readers.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-readers-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = [
  { id: 'easy-ham-1/00001', subject: 'Re: <b>bold</b> & co', text: 'Hello & <world>\n\nSecond   paragraph' },
  { id: 'spam-1/00002', text: 'Only one paragraph, with a < sign' },
];
// 10 KB: a few dozen records, so the pages repeat under new ids.
const files = writeBenchFiles(dir, source, 0.01);

async function read(format: string, path: string): Promise<Document[]> {
  const docs: Document[] = [];
  for await (const d of readCorpus({ format, path }, newCorpusStats())) docs.push(d);
  return docs;
}

const words = (t: string | undefined) => t?.replace(/\s+/g, ' ').trim();

describe('writeBenchFiles', () => {
  it('writes a gzip TREC-web file that reads back record for record', async () => {
    const { trecweb } = await files;
    const raw = gunzipSync(readFileSync(trecweb.path));
    // The manifest's counts against the bytes themselves (what zcat | wc -c and grep -c give).
    expect(raw.length).toBe(trecweb.bytes);
    expect(raw.toString().split('<DOC>\n').length - 1).toBe(trecweb.docs);
    expect(trecweb.bytes).toBeGreaterThanOrEqual(10_000);
    const docs = await read('trecweb', trecweb.path);
    expect(docs.length).toBe(trecweb.docs);
    expect(docs.slice(0, 3).map((d) => d.id)).toEqual(['GX000-00-0000000', 'GX000-00-0000001', 'GX000-00-0000002']);
    // The title and script are in the head: only the paragraphs are text.
    expect(words(docs[0]?.text)).toBe('Hello & <world> Second paragraph');
    expect(words(docs[1]?.text)).toBe('Only one paragraph, with a < sign');
    expect(docs[2]?.text).toBe(docs[0]?.text);
    // the page's <title> is the mail's subject, escaped: read back decoded, as meta.title
    expect(docs[0]?.meta).toEqual({ url: 'http://www.example.gov/easy-ham-1/00001.html', title: 'Re: <b>bold</b> & co' });
  });

  it('writes a gzip WARC/1.0 file whose responses read back with their WARC-TREC-IDs', async () => {
    const { warc } = await files;
    const raw = gunzipSync(readFileSync(warc.path)).toString();
    expect(raw.length).toBe(warc.bytes); // ASCII pages: characters are bytes
    expect(raw.split('WARC-Type: response\r\n').length - 1).toBe(warc.docs);
    const docs = await read('warc', warc.path);
    expect(docs.length).toBe(warc.docs);
    expect(docs.slice(0, 2).map((d) => d.id)).toEqual(['clueweb12-0000tw-00-00000', 'clueweb12-0000tw-00-00001']);
    expect(words(docs[0]?.text)).toBe('Hello & <world> Second paragraph');
    expect(words(docs[3]?.text)).toBe('Only one paragraph, with a < sign');
  });
});
