import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { WARCParser } from 'warcio';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../../harness/errors.ts';
import { readFileChunks, type Chunk } from '../../../harness/corpus/files.ts';
import type { Skip } from '../../../harness/corpus/types.ts';
import { dechunk, parseHttpResponse, splitWarcRecords, warcReader } from '../../../harness/corpus/warc.ts';
import { readAll, sharedFixture, words } from '../../support/reader.ts';

const shared = sharedFixture;
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

const read = (path: string) => readAll(warcReader, path);


describe('warc reader on the anserini WARC fixtures (LF-only header lines, which warcio cannot read)', () => {
  it('reads the ClueWeb09 WARC/0.18 response with its invalid date', async () => {
    const { docs, skips } = await read(shared('anserini/clueweb09-segment1.warc.gz'));
    // zcat clueweb09-segment1.warc.gz | grep WARC-TREC-ID → clueweb09-az0000-00-00000 (1 response)
    expect(docs.map((d) => d.id)).toEqual(['clueweb09-az0000-00-00000']);
    expect(words(docs[0]?.text)).toBe('whatever here will be included');
    expect(docs[0]?.meta).toEqual({ url: 'http://clueweb09.test.com/' });
    expect(skips).toEqual([]);
  });

  it('reads the ClueWeb12 WARC/1.0 response', async () => {
    const { docs } = await read(shared('anserini/clueweb12-segment1.warc.gz'));
    // zcat clueweb12-segment1.warc.gz | grep WARC-TREC-ID → clueweb09-az0000-00-00000
    expect(docs.map((d) => [d.id, words(d.text)])).toEqual([['clueweb09-az0000-00-00000', 'whatever here will be included']]);
  });

  it('takes the WARC-Record-ID of a Common Crawl response, without its angle brackets', async () => {
    const { docs } = await read(shared('anserini/commoncrawl-segment1.warc.gz'));
    // zcat commoncrawl-segment1.warc.gz | grep -A1 'WARC/1.0' | grep Record-ID (the 2nd, of the response)
    expect(docs.map((d) => d.id)).toEqual(['urn:uuid:b92fd779-f40f-4edc-8332-ffddbdbce74b']);
    expect(docs[0]?.meta?.url).toBe('https://www.suncommunitynews.com/sports/eagles-claim-bowling-crown/');
  });

  it('takes the id from the header corpus.id_field names, in any case', async () => {
    // zcat clueweb09-segment1.warc.gz | grep -i 'WARC-Target-URI' → the response's is http://clueweb09.test.com/
    const { docs } = await readAll(warcReader, shared('anserini/clueweb09-segment1.warc.gz'), { id_field: 'warc-target-uri' });
    expect(docs.map((d) => d.id)).toEqual(['http://clueweb09.test.com/']);
  });

  it('skips a response without the header corpus.id_field names, naming the header', async () => {
    const { docs, skips } = await readAll(warcReader, shared('anserini/clueweb09-segment1.warc.gz'), { id_field: 'X-Doc-Id' });
    expect(docs).toEqual([]);
    expect(skips.map((s) => [s.reason, s.detail])).toEqual([['missing-id', "response record without a 'x-doc-id' header (corpus.id_field)"]]);
  });

  it('refuses an unknown option and an id_field that is no header name', async () => {
    const file = shared('anserini/clueweb09-segment1.warc.gz');
    await expect(readAll(warcReader, file, { text_field: 'x' })).rejects.toThrow("warc: unknown option 'text_field' (known: id_field)");
    await expect(readAll(warcReader, file, { id_field: 'two words' })).rejects.toThrow('warc: corpus.id_field must be a WARC header name');
  });
});

describe('warc reader on the warcio-js fixtures (WARC/1.0, CRLF)', () => {
  it('reads the one response of example.warc.gz, a per-record gzip with a gzip content-encoding', async () => {
    // zcat example.warc.gz | grep -c 'WARC-Type: response' → 1; the revisit and requests are not documents
    const { docs, skips } = await read(shared('warcio-js/example.warc.gz'));
    expect(docs.map((d) => d.id)).toEqual(['urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005']);
    expect(words(docs[0]?.text)).toMatch(/^Example Domain This domain is established to be used for illustrative examples/);
    expect(skips).toEqual([]);
  });

  it('skips both records of example-bad-length.warc whose Content-Length is wrong, at their offsets', async () => {
    const file = shared('warcio-js/example-bad-length.warc');
    const { docs, skips } = await read(file);
    // grep -a -b 'WARC/1.0' → 0 488 1197 2566 3370 4316. Against example.warc.gz, the response
    // at 1197 says 974 (975 there) and the revisit at 3370 says 371 (369 there).
    expect(docs).toEqual([]);
    expect(skips.map((s) => [s.reason, s.offset, s.id])).toEqual([
      ['bad-content-length', 1197, 'urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005'],
      ['bad-content-length', 3370, 'urn:uuid:e6e395ca-0221-11e7-a18d-0242ac120005'],
    ]);
    expect(skips.every((s) => s.file === file && s.kind === 'skipped')).toBe(true);
  });

  it('resumes after a bad record: the request records that follow are framed', async () => {
    const file = shared('warcio-js/example-bad-length.warc');
    const framed: [number, string | undefined][] = [];
    const ctx = { skip: () => undefined };
    for await (const r of splitWarcRecords(readFileChunks(file, ctx), file, ctx)) framed.push([r.offset, r.headers.get('warc-type')]);
    expect(framed).toEqual([
      [0, 'warcinfo'],
      [488, 'warcinfo'],
      [2566, 'request'],
      [4316, 'request'],
    ]);
  });

  it('frames the same records and skips whatever the chunk boundaries', async () => {
    const file = shared('warcio-js/example-bad-length.warc');
    const bytes = await readFile(file);
    async function* chunked(size: number): AsyncGenerator<Chunk> {
      for (let at = 0; at < bytes.length; at += size) yield { file, offset: at, bytes: bytes.subarray(at, at + size) };
    }
    for (const size of [1, 7, 100, 4096]) {
      const seen: (string | number | undefined)[][] = [];
      const ctx = { skip: (s: Skip) => void seen.push([s.reason, s.offset]) };
      for await (const r of splitWarcRecords(chunked(size), file, ctx)) seen.push([r.headers.get('warc-type'), r.offset, r.block.length]);
      // grep -a -b 'WARC/1.0' and the Content-Length of each record
      expect(seen, `chunks of ${size}`).toEqual([
        ['warcinfo', 0, 249],
        ['warcinfo', 488, 470],
        ['bad-content-length', 1197],
        ['request', 2566, 493],
        ['bad-content-length', 3370],
        ['request', 4316, 493],
      ]);
    }
  });

  it('decodes a chunked body', async () => {
    const { docs } = await read(shared('warcio-js/example-iana.org-chunked.warc'));
    expect(docs.map((d) => d.id)).toEqual(['urn:uuid:a96ae1a5-931d-4c45-96f3-98576d155f8b']);
    const text = words(docs[0]?.text) ?? '';
    expect(text.startsWith('Internet Assigned Numbers Authority')).toBe(true);
    // Chunk-size lines of the raw body (grep -a -E '^[0-9a-f]+\r$' finds e.g. '1f3e') must be gone.
    expect(text).not.toMatch(/\b[0-9a-f]{3,4}\b(?= <)/);
  });

  it('strips the angle brackets of a wget target URI', async () => {
    const { docs } = await read(shared('warcio-js/example-wget-bad-target-uri.warc.gz'));
    expect(docs.map((d) => d.meta?.url)).toEqual(['http://example.com/']);
  });

  it('yields nothing, and counts nothing, for resource and revisit records', async () => {
    for (const name of ['warcio-js/example-resource.warc.gz', 'warcio-js/example-url-agnostic-revisit.warc.gz']) {
      expect(await read(shared(name))).toEqual({ docs: [], skips: [] });
    }
  });

  it('reads a 301 response of WARC/1.1', async () => {
    const { docs } = await read(shared('warcio-js/redirect.warc'));
    expect(docs.map((d) => [d.id, words(d.text)])).toEqual([
      ['urn:uuid:29ef166a-ff44-4ff3-8158-0d1094ce7591', 'Moved Permanently The document has moved here .'],
    ]);
  });

  it('frames and parses HTTP exactly as warcio does, wherever warcio works', async () => {
    const names = ['example.warc.gz', 'example-iana.org-chunked.warc', 'example-wget-bad-target-uri.warc.gz', 'redirect.warc'];
    for (const name of names) {
      const file = shared(`warcio-js/${name}`);
      const theirs: [string, string][] = [];
      for await (const r of new WARCParser(createReadStream(file))) {
        if (r.warcType !== 'response') continue;
        theirs.push([r.warcHeader('WARC-Record-ID') ?? '', Buffer.from(await r.readFully(true)).toString('latin1')]);
      }
      const ours: [string, string][] = [];
      const ctx = { skip: () => undefined };
      for await (const r of splitWarcRecords(readFileChunks(file, ctx), file, ctx)) {
        if (r.headers.get('warc-type') !== 'response') continue;
        const http = parseHttpResponse(r.block);
        ours.push([r.headers.get('warc-record-id') ?? '', http.ok ? Buffer.from(http.http.body).toString('latin1') : http.problem]);
      }
      expect(ours, name).toEqual(theirs);
      expect(ours.length, name).toBe(1);
    }
  });
});

describe('warc reader on the project fixtures', () => {
  it('reads a ClueWeb09-style file: chunked latin-1, UTF-8, gzip-encoded, invalid bytes, an image, no TREC id', async () => {
    const file = own('clueweb09-style.warc.gz');
    const { docs, skips } = await read(file);
    // zcat clueweb09-style.warc.gz | grep -c 'WARC-Type: response' → 6; the image/png one is skipped
    expect(docs.map((d) => [d.id, words(d.text)])).toEqual([
      ['clueweb09-en0000-00-00001', 'Café crème brûlée'],
      ['clueweb09-en0000-00-00002', 'naïve — résumé'],
      ['clueweb09-en0000-00-00003', 'gzip encoded body text'],
      ['clueweb09-en0000-00-00004', 'invalid ÿþ utf-8 bytes'],
      ['urn:uuid:11111111-0000-0000-0000-000000000006', 'no trec id, the record id is used'],
    ]);
    // zcat clueweb09-style.warc.gz | grep -a -b 'WARC/0.18' → records 4 and 5 start at 1504 and 1851
    expect(skips.map((s) => [s.reason, s.kind, s.offset, s.id])).toEqual([
      ['undecodable-charset', 'recovered', 1504, 'clueweb09-en0000-00-00004'],
      ['non-text-content', 'skipped', 1851, 'clueweb09-en0000-00-00005'],
    ]);
  });

  it('keeps the whole records before a record cut off by the end of the file', async () => {
    const { docs, skips } = await read(own('truncated-record.warc'));
    // grep -a -b 'WARC/0.18' truncated-record.warc → 0 248 586; the file is 932 bytes, short of the last record's length
    expect(docs.map((d) => d.id)).toEqual(['clueweb09-en0000-00-00007']);
    expect(skips.map((s) => [s.reason, s.offset, s.id])).toEqual([['truncated-record', 586, 'clueweb09-en0000-00-00008']]);
  });

  it('quotes header values it cannot use escaped and cut short (found by fuzzing)', async () => {
    const record = (id: string, extra: string, http: string, length?: string) => {
      const block = Buffer.from(http, 'latin1');
      return Buffer.concat([
        Buffer.from(`WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <${id}>\r\n${extra}Content-Length: ${length ?? block.length}\r\n\r\n`, 'latin1'),
        block,
        Buffer.from('\r\n\r\n'),
      ]);
    };
    const dir = mkdtempSync(join(tmpdir(), 'ndd-warc-'));
    try {
      const file = join(dir, 'odd.warc');
      writeFileSync(
        file,
        Buffer.concat([
          record('a', '', 'HTTP/1.1 200 OK\r\nContent-Type: \u0000\u001b[2Jimage/x\r\n\r\nbody'),
          record('b', '', '\u001b]0;title\u0007 not http\r\n\r\n'),
          record('c', '', 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=x\u001b[31m\r\n\r\n\u00e9t\u00e9'),
          record('d', '', 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\nbody'),
          record('e', '', 'x', `1\u001b[2J${'9'.repeat(100)}`),
          record('f', '', 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nthe one good page'),
        ]),
      );
      const { docs, skips } = await read(file);
      expect(docs.map((d) => d.id)).toEqual(['c', 'f']);
      expect(skips.map((s) => [s.reason, s.detail])).toEqual([
        ['non-text-content', "Content-Type '\\x00\\e[2jimage/x' is not text"],
        ['bad-http-response', "no HTTP status line (found '\\e]0;title\\x07 not http')"],
        ['undecodable-charset', "unknown charset 'x\\e[31m'"],
        ['bad-http-response', "body is not valid 'gzip' content-encoding"],
        ['bad-warc-header', `Content-Length '1\\e[2J${'9'.repeat(75)}…' is not a byte count`],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('frames a run of version lines without a header end in linear time, as one lost tail (it took minutes)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndd-warc-'));
    try {
      const http = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nok';
      const whole = `WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <ok>\r\nContent-Length: ${http.length}\r\n\r\n${http}\r\n\r\n`;
      const file = join(dir, 'lines.warc');
      writeFileSync(file, whole + 'WARC/1.0\n'.repeat(300_000)); // 2.7 MB, three chunks
      const { docs, skips } = await read(file);
      expect(docs.map((d) => d.id)).toEqual(['ok']);
      // At most one skip a MB of headers without end (not one a version line, every 9 bytes), one for the tail.
      expect(skips.length).toBeLessThanOrEqual(4);
      expect(skips.slice(0, -1).every((s) => s.reason === 'bad-warc-header')).toBe(true);
      expect(skips.at(-1)?.reason).toBe('truncated-record');
      expect(skips.at(-1)?.detail).toBe('WARC header without its end (a blank line) before the end of the file; the rest of the file is lost');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 15_000);

  it('passes over a record whose Content-Length is over the limit, dropping its bytes as they stream', async () => {
    const record = (id: string, block: string) =>
      `WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <${id}>\r\nContent-Length: ${block.length}\r\n\r\n${block}\r\n\r\n`;
    const first = record('big', 'x'.repeat(1000));
    const bytes = Buffer.from(first + record('small', 'y'.repeat(50)));
    async function* chunked(size: number): AsyncGenerator<Chunk> {
      for (let at = 0; at < bytes.length; at += size) yield { file: 'f', offset: at, bytes: bytes.subarray(at, at + size) };
    }
    for (const size of [1, 33, 100, 5000]) {
      const seen: (string | number | undefined)[][] = [];
      const ctx = { skip: (s: Skip) => void seen.push([s.reason, s.offset, s.id]) };
      for await (const r of splitWarcRecords(chunked(size), 'f', ctx, 200)) seen.push([r.headers.get('warc-record-id'), r.offset, r.block.length]);
      expect(seen, `chunks of ${size}`).toEqual([
        ['record-too-large', 0, 'big'],
        ['<small>', first.length, 50],
      ]);
    }
  });

  it('fails loudly on a file in which no WARC record is found', async () => {
    const file = shared('anserini/trecweb-segment1.txt');
    await expect(read(file)).rejects.toThrow(DataError);
    await expect(read(file)).rejects.toThrow(/trecweb-segment1\.txt: byte 0: no WARC record found/);
  });
});

describe('dechunk', () => {
  it('joins the chunks and stops at the zero chunk', () => {
    expect(dechunk(Buffer.from('3\r\nabc\r\na;ext=1\r\n0123456789\r\n0\r\n\r\n'))?.toString()).toBe('abc0123456789');
  });

  it('gives undefined for a body that is not chunked', () => {
    expect(dechunk(Buffer.from('<html>not chunked</html>'))).toBeUndefined();
  });
});
