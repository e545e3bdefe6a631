/**
 * WARC (format `warc`): WARC/0.18 as in ClueWeb09, WARC/1.0 as in ClueWeb12 and Common Crawl.
 * Only `response` records become documents: id = `WARC-TREC-ID`, else `WARC-Record-ID`
 * (without its angle brackets); `meta.url` = `WARC-Target-URI`; the HTTP headers are
 * stripped, chunked transfer-encoding and gzip/deflate content-encoding are decoded, and the
 * body is decoded by the charset of the HTTP Content-Type (default UTF-8; undecodable bytes
 * make the document `recovered`) and goes through the shared HTML-to-text normalization.
 * Responses whose Content-Type is not text (images, PDF, …) are counted skips.
 *
 * The bytes are read by our own parser, not by warcio (Webrecorder's library), for three
 * measured reasons:
 * - warcio reads records by CRLF header lines: on ClueWeb09's WARC/0.18 (LF-only lines,
 *   invalid dates such as `2009-03-65T…`) and on the LF-only WARC/1.0 files of anserini's
 *   ClueWeb12 and Common Crawl samples it merges the records' headers into one and reads no
 *   document, without a word;
 * - after a wrong Content-Length it prints a console warning and carries on out of step;
 * - where it does work (CRLF WARC/1.0), parsing a record's HTTP part with it costs about
 *   70 µs against 3.4 µs here (10,000 records of a generated WARC), which alone would hold
 *   reading under the 50 MB/s the benchmark asks for.
 * warcio stays the reference: warc.test.ts checks that framing and HTTP decoding here give,
 * record for record, the bytes warcio gives on every fixture it reads correctly.
 *
 * Framing: a record must be followed by its separator and the next `WARC/x.y` line (or the
 * end of the file); when it is not, its Content-Length is wrong, the record is a counted skip
 * at its byte offset and reading resumes at the next version line after its header.
 * Records are held whole while they are read (a response is needed whole for its text);
 * memory is bounded by the largest record plus one chunk.
 */
import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { clip, DataError, quote, UserError } from '../errors.ts';
import { decodeCharset, type Decoded } from './charset.ts';
import { estimatedBytes, listInputFiles, readFileChunks, type Chunk } from './files.ts';
import { batchParser, readRecords, type RecordParser } from './parallel.ts';
import { htmlMeta, htmlToDocument } from './html.ts';
import type { CorpusReader, Document, ReadContext } from './types.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Warc from './warc.ts';

/** One framed WARC record. Header names are lower-cased; `block` is the Content-Length bytes. */
export interface WarcRecord {
  readonly file: string;
  readonly offset: number;
  /** The version line, e.g. `WARC/0.18`. */
  readonly version: string;
  /** Header lines end in CRLF, as the standard says (false for ClueWeb09's LF-only lines). */
  readonly crlf: boolean;
  readonly headers: ReadonlyMap<string, string>;
  readonly block: Buffer;
}

const CR = 0x0d;
const LF = 0x0a;
const WARC = Buffer.from('WARC/');
const CRLF2 = Buffer.from('\r\n\r\n');
/** A WARC header larger than this is not a header: the bytes are not a record. */
const MAX_HEADER = 1 << 20;
const VERSION_LINE = /^WARC\/\d+\.\d+\r?$/;
/** A longer line is not a version line (and is not worth decoding to find out). */
const MAX_VERSION_LINE = 16;
/** Bytes past a block that show whether a whole version line (`WARC/0.18\r\n`) follows. */
const LOOKAHEAD = 16;

/** The end of a header block (index after its blank line) at or after `from`, or -1. */
function headerEnd(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(LF, from); i >= 0; i = buf.indexOf(LF, i + 1)) {
    if (buf[i + 1] === LF) return i + 2;
    if (buf[i + 1] === CR && buf[i + 2] === LF) return i + 3;
  }
  return -1;
}

/** Start of the next `WARC/x.y` version line at or after `from`, or -1 if none complete in `buf`. */
function findVersionLine(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(WARC, from); i >= 0; i = buf.indexOf(WARC, i + 1)) {
    if (i > 0 && buf[i - 1] !== LF) continue;
    const eol = buf.indexOf(LF, i);
    if (eol < 0) return -1;
    if (eol - i <= MAX_VERSION_LINE && VERSION_LINE.test(buf.toString('latin1', i, eol))) return i;
  }
  return -1;
}

function parseHeaderLines(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split('\n')) {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (l === '') continue;
    if ((l[0] === ' ' || l[0] === '\t') && last !== undefined) {
      headers.set(last, `${headers.get(last) ?? ''} ${l.trim()}`); // folded continuation line
      continue;
    }
    const colon = l.indexOf(':');
    if (colon <= 0) continue;
    last = l.slice(0, colon).trim().toLowerCase();
    if (!headers.has(last)) headers.set(last, l.slice(colon + 1).trim());
  }
  return headers;
}

/** The record's id: the header `idHeader` names (lower case), or by default WARC-TREC-ID, else WARC-Record-ID. */
function recordName(headers: ReadonlyMap<string, string>, idHeader?: string): string | undefined {
  const id = idHeader === undefined ? headers.get('warc-trec-id') || headers.get('warc-record-id') : headers.get(idHeader);
  return id ? id.replace(/^<(.*)>$/, '$1') : undefined;
}

/**
 * Frames the WARC records of one file's chunks (see the module comment). Bytes that are not a
 * record, records with a wrong Content-Length and records cut off by the end of the file are
 * counted skips. A non-empty file in which no record header at all is found is a DataError.
 */
/**
 * A record whose Content-Length is larger than this is passed over, its bytes dropped as they
 * stream: read whole, a damaged length would make the reader hold the rest of the file (and
 * fail past Node's 4 GB Buffer).
 */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

export async function* splitWarcRecords(
  chunks: AsyncIterable<Chunk>,
  file: string,
  ctx: ReadContext,
  maxRecordBytes = MAX_RECORD_BYTES,
): AsyncGenerator<WarcRecord> {
  let buf: Buffer = Buffer.alloc(0);
  let base = 0; // file offset of buf[0]
  let pos = 0; // parse position in buf
  let want = 0; // buf length needed before parsing can go on
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let headersSeen = 0;
  let bytesSeen = 0;
  let eof = false;
  let resyncing = false; // looking for the next record after a bad one (already counted)
  let discardTo = 0; // file offset before which the bytes of a passed-over record are dropped

  const skip = (at: number, reason: string, detail: string, id?: string) =>
    ctx.skip({ file, offset: base + at, ...(id === undefined ? {} : { id }), reason, kind: 'skipped', detail });

  // Where in this buf a header's end (a blank line) was looked for and not found: no header
  // after that point can end in this buf either. Looked for again from every version line of a
  // run of headers without end, it made reading quadratic.
  let noHeaderEndFrom = -1;
  let noHeaderEndIn: Buffer | undefined;
  const findHeaderEnd = (from: number): number => {
    if (noHeaderEndIn === buf && noHeaderEndFrom <= from) return -1;
    const end = headerEnd(buf, from);
    if (end < 0) [noHeaderEndIn, noHeaderEndFrom] = [buf, from];
    return end;
  };

  /** Parses what it can from buf; returns the records and sets `want` when it needs more. */
  function* parse(): Generator<WarcRecord> {
    for (;;) {
      while (pos < buf.length && (buf[pos] === CR || buf[pos] === LF)) pos++;
      if (pos >= buf.length) return;
      if (buf.compare(WARC, 0, WARC.length, pos, Math.min(pos + WARC.length, buf.length)) !== 0 || !startsVersionLine(pos)) {
        if (buf.length - pos < 64 && !eof) return void (want = buf.length + 1);
        const next = findVersionLine(buf, pos + 1);
        if (!resyncing) skip(pos, 'not-warc', 'bytes that are not a WARC record');
        resyncing = true;
        if (next < 0) {
          if (eof) return void (pos = buf.length);
          pos = Math.max(pos, buf.length - 64); // keep a tail that may hold the start of a version line
          return void (want = buf.length + 1);
        }
        pos = next;
        continue;
      }
      resyncing = false;
      const hEnd = findHeaderEnd(pos);
      if (hEnd < 0) {
        if (!eof && buf.length - pos < MAX_HEADER) return void (want = buf.length + 1);
        if (eof) {
          // No blank line up to the end of the file: no record after this one can be whole either.
          skip(pos, 'truncated-record', 'WARC header without its end (a blank line) before the end of the file; the rest of the file is lost');
          pos = buf.length;
          return;
        }
        skip(pos, 'bad-warc-header', 'WARC header without its end (a blank line)');
        resyncing = true;
        // Any version line up to MAX_HEADER before the end of buf starts such a header too.
        pos = Math.max(pos + WARC.length, buf.length - MAX_HEADER);
        continue;
      }
      headersSeen++;
      const headerText = buf.toString('latin1', pos, hEnd);
      const version = headerText.slice(0, headerText.indexOf('\n')).trim();
      const headers = parseHeaderLines(headerText.slice(headerText.indexOf('\n') + 1));
      const crlf = buf[buf.indexOf(LF, pos) - 1] === CR;
      const lengthText = headers.get('content-length') ?? '';
      if (!/^\d+$/.test(lengthText)) {
        skip(pos, 'bad-warc-header', `Content-Length ${quote(lengthText)} is not a byte count`, recordName(headers));
        resyncing = true;
        pos = hEnd;
        continue;
      }
      const blockEnd = hEnd + Number(lengthText);
      if (Number(lengthText) > maxRecordBytes) {
        skip(pos, 'record-too-large', `Content-Length ${clip(lengthText, 20)} is more than ${maxRecordBytes} bytes: the record is passed over`, recordName(headers));
        resyncing = true;
        if (blockEnd <= buf.length) {
          pos = blockEnd;
          continue;
        }
        // Drop the rest of the block as it streams in, then look for the next record after it.
        discardTo = base + blockEnd;
        base = discardTo;
        buf = Buffer.alloc(0);
        pos = 0;
        return;
      }
      // The block, then (unless the file ends) a separator and the next version line.
      if (blockEnd + CRLF2.length + LOOKAHEAD > buf.length && !eof) return void (want = blockEnd + CRLF2.length + LOOKAHEAD);
      if (blockEnd > buf.length) {
        skip(pos, 'truncated-record', `the file ends inside the record's ${lengthText}-byte block`, recordName(headers));
        pos = buf.length;
        return;
      }
      let sepEnd = blockEnd;
      while (sepEnd < buf.length && (buf[sepEnd] === CR || buf[sepEnd] === LF)) sepEnd++;
      const atEnd = sepEnd >= buf.length && eof;
      if (sepEnd + LOOKAHEAD > buf.length && !eof) return void (want = sepEnd + LOOKAHEAD);
      const separated = atEnd || (findVersionLine(buf, sepEnd) === sepEnd && (!crlf || standardSeparator(blockEnd, sepEnd)));
      if (!separated) {
        skip(pos, 'bad-content-length', `Content-Length ${lengthText} does not end where the record ends`, recordName(headers));
        resyncing = true;
        pos = hEnd;
        continue;
      }
      yield {
        file,
        offset: base + pos,
        version,
        crlf,
        headers,
        block: buf.subarray(hEnd, blockEnd),
      };
      pos = sepEnd;
    }
  }

  /**
   * A standard record ends its block with CRLF CRLF. Some writers (Internet Archive's
   * web-commons, in warcio's url-agnostic-revisit fixture) count those four bytes into the
   * Content-Length and write no separator: accepted too. Any other run of line ends means the
   * Content-Length is off by a few bytes (warcio's example-bad-length.warc).
   */
  function standardSeparator(blockEnd: number, sepEnd: number): boolean {
    if (sepEnd === blockEnd) return true;
    return sepEnd - blockEnd === CRLF2.length && buf.compare(CRLF2, 0, CRLF2.length, blockEnd, sepEnd) === 0;
  }

  function startsVersionLine(at: number): boolean {
    const eol = buf.indexOf(LF, at);
    if (eol < 0) return !eof && buf.length - at < 64; // wait for the rest of the line
    return eol - at <= MAX_VERSION_LINE && VERSION_LINE.test(buf.toString('latin1', at, eol));
  }

  for await (const chunk of chunks) {
    bytesSeen += chunk.bytes.length;
    let bytes = chunk.bytes;
    if (discardTo > chunk.offset) bytes = bytes.subarray(Math.min(bytes.length, discardTo - chunk.offset));
    if (bytes.length === 0) continue;
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (buf.length + pendingBytes < want) continue;
    buf = Buffer.concat([buf.subarray(pos), ...pending]);
    base += pos;
    pos = 0;
    pending.length = 0;
    pendingBytes = 0;
    want = 0;
    yield* parse();
  }
  eof = true;
  if (pendingBytes > 0 || pos > 0) {
    buf = Buffer.concat([buf.subarray(pos), ...pending]);
    base += pos;
    pos = 0;
  }
  want = 0;
  yield* parse();
  if (bytesSeen > 0 && headersSeen === 0) {
    throw new DataError(`${file}: byte 0: no WARC record found (not a WARC file, or an unreadable one)`);
  }
}

/** A response's HTTP parts: headers (lower-cased names) and the decoded body bytes. */
interface HttpBody {
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
}

type HttpResult = { ok: true; http: HttpBody } | { ok: false; problem: string };

/** The HTTP response in a record's block; its lines may end in CRLF or, as in ClueWeb09, in LF only. */
export function parseHttpResponse(block: Buffer): HttpResult {
  const end = headerEnd(block, 0);
  if (end < 0) return { ok: false, problem: 'HTTP headers without their end (a blank line)' };
  const text = block.toString('latin1', 0, end);
  const statusLine = text.slice(0, text.indexOf('\n')).trim();
  if (!/^HTTP\/\d/.test(statusLine)) return { ok: false, problem: `no HTTP status line (found ${quote(statusLine, 40)})` };
  const headers = parseHeaderLines(text.slice(text.indexOf('\n') + 1));
  let body: Uint8Array = block.subarray(end);
  if ((headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) {
    const dechunked = dechunk(block.subarray(end));
    if (dechunked) body = dechunked;
  }
  const encoding = (headers.get('content-encoding') ?? '').toLowerCase();
  const decoded = decodeContent(body, encoding);
  if (decoded === undefined) return { ok: false, problem: `body is not valid ${quote(encoding)} content-encoding` };
  return { ok: true, http: { headers, body: decoded } };
}

/** Chunked transfer-encoding; undefined when the body is not chunked after all (then it is used as is, as warcio does). */
export function dechunk(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf(LF, at);
    if (eol < 0) return parts.length > 0 ? Buffer.concat(parts) : undefined;
    const line = body.toString('latin1', at, eol);
    const sizeText = line.slice(0, line.includes(';') ? line.indexOf(';') : undefined).trim(); // drop chunk extensions
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) return parts.length > 0 ? Buffer.concat(parts) : undefined;
    const size = parseInt(sizeText, 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size;
    if (body[at] === CR) at++;
    if (body[at] === LF) at++;
  }
}

function decodeContent(body: Uint8Array, encoding: string): Uint8Array | undefined {
  // Crawlers cut bodies at a size limit, so a stream may lack its end: keep what inflates.
  const lenient = { finishFlush: constants.Z_SYNC_FLUSH };
  try {
    if (encoding === '' || encoding === 'identity') return body;
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, lenient);
    if (encoding === 'br') return brotliDecompressSync(body);
    if (encoding === 'deflate') {
      try {
        return inflateSync(body, lenient);
      } catch {
        return inflateRawSync(body, lenient); // servers often send raw deflate under this name
      }
    }
  } catch {
    return undefined;
  }
  return body; // an unknown coding: take the bytes as they are rather than drop the page
}

/** UTF-8 (declared or by default) is checked natively first: it is on the hot path of every page. */
function decodeBody(body: Uint8Array, charset: string | undefined): Decoded {
  const label = charset?.toLowerCase();
  if ((label === undefined || label === 'utf-8' || label === 'utf8') && isUtf8(body)) {
    return { kind: 'exact', text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') };
  }
  return decodeCharset(body, charset);
}

const TEXT_TYPE = /^(text\/|application\/(xhtml\+xml|xml|rss\+xml|atom\+xml)|[^;]*\+xml)/;

/** Turns a framed response record into a document; undefined (with a counted skip) when it cannot. */
export function responseToDocument(record: WarcRecord, ctx: ReadContext, idHeader?: string): Document | undefined {
  const id = recordName(record.headers, idHeader);
  const skip = (reason: string, detail: string, kind: 'skipped' | 'recovered' = 'skipped') =>
    ctx.skip({ file: record.file, offset: record.offset, ...(id === undefined ? {} : { id }), reason, kind, detail });
  if (id === undefined) {
    skip('missing-id', idHeader === undefined ? 'response record without WARC-TREC-ID or WARC-Record-ID' : `response record without a ${quote(idHeader)} header (corpus.id_field)`);
    return undefined;
  }
  const result = parseHttpResponse(record.block);
  if (!result.ok) {
    skip('bad-http-response', result.problem);
    return undefined;
  }
  const contentType = (result.http.headers.get('content-type') ?? '').trim().toLowerCase();
  const mediaType = contentType.split(';', 1)[0]?.trim() ?? '';
  if (mediaType !== '' && !TEXT_TYPE.test(mediaType)) {
    skip('non-text-content', `Content-Type ${quote(mediaType)} is not text`);
    return undefined;
  }
  const charset = /charset\s*=\s*["']?([^"';\s]+)/.exec(contentType)?.[1];
  const decoded = decodeBody(result.http.body, charset);
  if (decoded.kind === 'fallback') skip('undecodable-charset', decoded.problem, 'recovered');
  const url = record.headers.get('warc-target-uri')?.replace(/^<(.*)>$/, '$1');
  const page = htmlToDocument(decoded.text);
  const meta = { ...(url ? { url } : {}), ...htmlMeta(page) };
  return Object.keys(meta).length > 0 ? { id, text: page.text, meta } : { id, text: page.text };
}

/** A response record as it travels to a parsing thread: its headers as a flat list of names and values (cloned much faster than a Map), its block as `bytes`. */
interface Response {
  readonly file: string;
  readonly offset: number;
  readonly version: string;
  readonly crlf: boolean;
  readonly headers: string[];
  readonly bytes: Buffer;
  /** `corpus.id_field`, lower case: the header that holds the id */
  readonly idHeader?: string;
}

async function* responses(files: readonly string[], idHeader: string | undefined, ctx: ReadContext): AsyncGenerator<Response> {
  for (const file of files) {
    for await (const r of splitWarcRecords(readFileChunks(file, ctx), file, ctx)) {
      if (r.headers.get('warc-type') !== 'response') continue;
      yield { file: r.file, offset: r.offset, version: r.version, crlf: r.crlf, headers: [...r.headers].flat(), bytes: r.block, ...(idHeader === undefined ? {} : { idHeader }) };
    }
  }
}

function parseResponse(r: Response, ctx: ReadContext): Document | undefined {
  const headers = new Map<string, string>();
  for (let i = 0; i < r.headers.length; i += 2) headers.set(r.headers[i]!, r.headers[i + 1]!);
  return responseToDocument({ file: r.file, offset: r.offset, version: r.version, crlf: r.crlf, headers, block: r.bytes }, ctx, r.idHeader);
}

/** `corpus.id_field` (a WARC header name such as WARC-Record-ID), lower case; undefined: the default headers. */
function warcIdHeader(options: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(options)) {
    if (key !== 'id_field') throw new UserError(`warc: unknown option ${quote(key)} (known: id_field)`);
  }
  const header = options['id_field'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
    throw new UserError(`warc: corpus.id_field must be a WARC header name such as WARC-Record-ID, got ${quote(String(header))}`);
  }
  return header.toLowerCase();
}

/** The worker side of the reader (corpus/parallel.ts). */
export const parseResponses = batchParser(parseResponse);
const parser: RecordParser<Response> = { parse: parseResponse, batch: workerModule<typeof Warc>(new URL('./warc.ts', import.meta.url).href).task('parseResponses') };

export const warcReader: CorpusReader = {
  format: 'warc',
  meta: ['url', 'title', 'tagged'],
  description: 'WARC/0.18 (ClueWeb09) and WARC/1.0 (ClueWeb12, Common Crawl): response records (plain, gzip or a directory of them); id from WARC-TREC-ID, else WARC-Record-ID, or the header id_field names',
  async *read(path: string, options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
    const idHeader = warcIdHeader(options);
    const files = await listInputFiles(path);
    yield* readRecords((c) => responses(files, idHeader, c), parser, ctx, estimatedBytes(files));
  },
};
