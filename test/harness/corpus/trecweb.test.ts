import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../../harness/errors.ts';
import { trecWebReader } from '../../../harness/corpus/trecweb.ts';
import { readAll, sharedFixture } from '../../support/reader.ts';

const shared = sharedFixture;
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

const read = (path: string) => readAll(trecWebReader, path);

describe('trecweb reader on anserini/trecweb-segment1.txt', () => {
  it('reads the two whole records and skips the one without <DOCNO> at its byte offset', async () => {
    const file = shared('anserini/trecweb-segment1.txt');
    const { docs, skips } = await read(file);
    // grep -c '<DOC>' → 3; grep -o '<DOCNO> [^ ]*' → WEB-0001, WEB-0003 (WEB-0002 lacks '<DOCNO>')
    expect(docs.map((d) => d.id)).toEqual(['WEB-0001', 'WEB-0003']);
    // grep -b '<DOC>' → 0, 223, 404: the broken record starts at byte 223
    expect(skips).toEqual([expect.objectContaining({ file, offset: 223, reason: 'missing-docno', kind: 'skipped' })]);
  });

  it('leaves the DOCHDR out of the text and keeps its first line as the url', async () => {
    const { docs } = await read(shared('anserini/trecweb-segment1.txt'));
    const first = docs[0];
    expect(first?.text.replace(/\s+/g, ' ')).toBe('Wh at ever here will be parsed asdf');
    expect(first?.text).not.toContain('DOCHDR');
    expect(first?.meta).toEqual({ url: 'DOCHDR will NOT be' });
  });
});

describe('trecweb reader on the project fixtures', () => {
  it('reads all four documents of a three-member gzip file', async () => {
    // zcat multi-member.trecweb.gz | grep -o 'MM-00[0-9]</DOCNO>' → MM-001 … MM-004
    const { docs, skips } = await read(own('multi-member.trecweb.gz'));
    expect(docs.map((d) => d.id)).toEqual(['MM-001', 'MM-002', 'MM-003', 'MM-004']);
    expect(docs.map((d) => d.meta?.url)).toEqual(['http://a.gov/1', 'http://a.gov/2', 'http://a.gov/3', 'http://a.gov/4']);
    expect(docs[0]?.text).toBe('first member one');
    expect(skips).toEqual([]);
  });

  it('keeps the records before a truncated gzip member and counts the loss', async () => {
    const { docs, skips } = await read(own('truncated-member.trecweb.gz'));
    // zcat truncated-member.trecweb.gz | grep -c '</DOC>' → 2 whole records; TR-003 has no </DOC>
    expect(docs.map((d) => d.id)).toEqual(['TR-001', 'TR-002']);
    expect(skips.map((s) => s.reason).sort()).toEqual(['missing-end-tag', 'truncated-gzip']);
  });

  it('skips a record without </DOC> or <DOCNO>, yields duplicate ids twice and recovers invalid UTF-8', async () => {
    const file = own('broken.trecweb');
    const { docs, skips } = await read(file);
    // grep -o '<DOCNO>[^<]*' broken.trecweb → BR-001 … BR-005; BR-002 is followed by another
    // <DOC> before any </DOC>, BR-005 by the end of the file; one record has no DOCNO.
    expect(docs.map((d) => d.id)).toEqual(['BR-001', 'BR-003', 'BR-003', 'BR-004']);
    // grep -b -a '<DOC>' broken.trecweb → 0 125 219 293 440 588 770
    expect(skips.map((s) => [s.reason, s.offset, s.kind])).toEqual([
      ['missing-end-tag', 125, 'skipped'],
      ['missing-docno', 219, 'skipped'],
      ['invalid-utf8', 588, 'recovered'],
      ['missing-end-tag', 770, 'skipped'],
    ]);
    expect(skips.find((s) => s.reason === 'invalid-utf8')?.id).toBe('BR-004');
  });

  it('decodes a record that is not UTF-8 as windows-1252', async () => {
    const { docs } = await read(own('broken.trecweb'));
    // The fixture holds the latin-1 bytes 0xE9 and 0xE8: é and è in windows-1252.
    expect(docs.find((d) => d.id === 'BR-004')?.text).toBe('café crème in latin-1');
  });

  it('reads a directory tree in byte order of the paths', async () => {
    const { docs } = await read(own('collection'));
    expect(docs.map((d) => d.id)).toEqual(['DIR-1', 'DIR-2', 'DIR-3']);
  });

  it('fails loudly on a non-empty file without any <DOC>', async () => {
    const file = shared('warcio-js/redirect.warc');
    await expect(read(file)).rejects.toThrow(DataError);
    await expect(read(file)).rejects.toThrow(/redirect\.warc: byte 0: no <DOC> record found/);
  });

  it('counts an empty file and yields nothing from it', async () => {
    const { docs, skips } = await read(own('empty.trecweb'));
    expect(docs).toEqual([]);
    expect(skips.map((s) => s.reason)).toEqual(['empty-file']);
  });
});
