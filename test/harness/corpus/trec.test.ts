import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../../harness/corpus/files.ts';
import { splitDocs, textElements, trecReader } from '../../../harness/corpus/trec.ts';
import type { Skip } from '../../../harness/corpus/types.ts';
import { readAll, sharedFixture, words } from '../../support/reader.ts';

const shared = sharedFixture;
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

const read = (path: string) => readAll(trecReader, path);


describe('trec reader on anserini/trec-disks-segment1.txt', () => {
  it('reads both records, the second by its NTCIR <DOC id="…"> attribute', async () => {
    const { docs, skips } = await read(shared('anserini/trec-disks-segment1.txt'));
    // grep -c '<DOC' → 2: '<DOCNO> AP-0001' and '<DOC id="doc2">'
    expect(docs.map((d) => d.id)).toEqual(['AP-0001', 'doc2']);
    expect(skips).toEqual([]);
  });

  it('takes HEAD, HEADLINE and TEXT as text and leaves FILEID, FIRST, SECOND and DATELINE out', async () => {
    const { docs } = await read(shared('anserini/trec-disks-segment1.txt'));
    // The fixture itself says which elements "should be included".
    expect(words(docs[0]?.text)).toBe(
      'This is head and should be included This is headline and should be included Hopefully we get this right',
    );
    expect(words(docs[1]?.text)).toBe('here is some text.');
  });
});

describe('trec reader on disks.trec', () => {
  it('strips inner tags, decodes entities and leaves DATE and BYLINE out', async () => {
    const { docs } = await read(own('disks.trec'));
    expect(docs.map((d) => d.id)).toEqual(['LA010189-0001', 'FT911-1']);
    expect(words(docs[0]?.text)).toBe('Rates & fees rise Banks raised their rates. Customers complained.');
    expect(words(docs[1]?.text)).toBe('FT 01 MAY 91 / Markets close higher Shares closed higher on Friday.');
  });
});

describe('splitDocs', () => {
  async function* chunked(text: string, size: number): AsyncGenerator<Chunk> {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += size) yield { file: 'f', offset: at, bytes: bytes.subarray(at, at + size) };
  }

  it('frames the same records whatever the chunk boundaries', async () => {
    const text = 'junk<DOC>\n<DOCNO>A</DOCNO>x</DOC>\n<DOC>\n<DOCNO>B</DOCNO>\n<DOCHDR>h</DOCHDR>y</DOC>\n<DOC><DOCNO>C</DOCNO>';
    // Naive framing on the whole string: every '<DOC>' up to its '</DOC>'.
    const expected = [...text.matchAll(/<DOC>[\s\S]*?<\/DOC>/g)].map((m) => [m.index, m[0]]);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const got: (string | number)[][] = [];
      const skips: Skip[] = [];
      for await (const d of splitDocs(chunked(text, size), 'f', { skip: (s) => skips.push(s) })) {
        got.push([d.offset, d.bytes.toString()]);
      }
      expect(got).toEqual(expected);
      expect(skips.map((s) => [s.reason, s.offset])).toEqual([['missing-end-tag', text.lastIndexOf('<DOC>')]]);
    }
  });

  it('frames a run of records without </DOC> in linear time (it searched to the end from every <DOC>)', async () => {
    // 400,000 unclosed records in 2.4 MB: minutes when quadratic, well under a second when not.
    const text = '<DOC>\n'.repeat(400_000);
    let skipped = 0;
    for await (const d of splitDocs(chunked(text, 1 << 20), 'f', { skip: () => skipped++ })) void d;
    expect(skipped).toBe(400_000);
  }, 15_000);
});

describe('splitDocs and a record without end', () => {
  it('passes over a <DOC> without </DOC> once it is larger than the limit, and reads on from the next <DOC>', async () => {
    const text = `junk<DOC>${'x'.repeat(1000)}</DOC>\n<DOC><DOCNO>B</DOCNO></DOC>\n`;
    for (const size of [1, 33, 64, 5000]) {
      const bytes = Buffer.from(text);
      async function* chunks(): AsyncGenerator<Chunk> {
        for (let at = 0; at < bytes.length; at += size) yield { file: 'f', offset: at, bytes: bytes.subarray(at, at + size) };
      }
      const seen: (string | number)[][] = [];
      const ctx = { skip: (s: Skip) => void seen.push([s.reason, s.offset as number]) };
      for await (const d of splitDocs(chunks(), 'f', ctx, 200)) seen.push([d.bytes.toString(), d.offset]);
      expect(seen, `chunks of ${size}`).toEqual(
        size === 5000
          ? [[`<DOC>${'x'.repeat(1000)}</DOC>`, 4], ['<DOC><DOCNO>B</DOCNO></DOC>', 1016]] // whole in one chunk: it has its end
          : [['record-too-large', 4], ['<DOC><DOCNO>B</DOCNO></DOC>', 1016]],
      );
    }
  });
});

describe('textElements', () => {
  const NAMES = 'HEADLINE|HEAD|HL|TITLE|TTL|TEXT|LP|LEADPARA';
  const byRegex = (s: string) => [...s.matchAll(new RegExp(`<(${NAMES})(?:\\s[^>]*)?>([\\s\\S]*?)<\\/\\1>`, 'g'))].map((m) => m[2]);

  it('takes what the element regex takes, on any tag soup', () => {
    const token = fc.constantFrom('<TEXT>', '</TEXT>', '<HEAD x=1>', '</HEAD>', '<HEADLINE>', '</HEADLINE>', '<HL', '<TEXTX>', '<LP\n>', '</LP>', '>', '<', 'a', ' ', '\n');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const s = tokens.join('');
        expect(textElements(s)).toEqual(byRegex(s));
      }),
      { seed: 16, numRuns: 2000 },
    );
  });

  it('reads a record of many unclosed elements in linear time (the regex took minutes)', () => {
    expect(textElements(`${'<TEXT>'.repeat(500_000)}<HEAD a>b</HEAD>`)).toEqual(['b']);
    expect(textElements(`${'<TEXT a'.repeat(500_000)}`)).toEqual([]);
  }, 15_000);
});
