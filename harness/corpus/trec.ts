/**
 * TREC disks SGML (format `trec`): `<DOC><DOCNO>…</DOCNO>…<TEXT>…</TEXT></DOC>`, as in TREC
 * disks 1–5, AQUAINT and NTCIR. This module also owns the `<DOC>` framing that `trecweb`
 * shares: records are cut out of the byte stream without holding the file.
 *
 * Text of a document: the content of its content-bearing elements, in document order —
 * HEADLINE, HEAD, HL, TITLE, TTL (headlines and titles across the disks' sources), TEXT,
 * LP and LEADPARA (lead paragraphs, which TREC disk 5's LA Times keeps outside TEXT).
 * Bibliographic fields (FILEID, DATELINE, DATE, BYLINE, SO, …) are not text: two stories
 * that differ only there are duplicates for the purpose of this benchmark. Tags and entities
 * inside those elements go through the shared HTML-to-text normalization.
 */
import { isUtf8 } from 'node:buffer';
import { decodeCharset, type Decoded } from './charset.ts';
import { DataError } from '../errors.ts';
import { htmlToDocument } from './html.ts';
import { estimatedBytes, listInputFiles, readFileChunks, type Chunk } from './files.ts';
import { batchParser, readRecords, type RecordParser } from './parallel.ts';
import type { CorpusReader, Document, ReadContext } from './types.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Trec from './trec.ts';

/** One `<DOC>…</DOC>` record's bytes (both tags included) and its byte offset in the file. */
export interface RawDoc {
  readonly file: string;
  readonly offset: number;
  readonly bytes: Buffer;
}

const OPEN = Buffer.from('<DOC');
const CLOSE = Buffer.from('</DOC>');

/** `<DOC>` or `<DOC attr…>`, not `<DOCNO>`/`<DOCHDR>`; -1 when none is complete in `buf`. */
function findOpen(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(OPEN, from); i >= 0; i = buf.indexOf(OPEN, i + OPEN.length)) {
    const next = buf[i + OPEN.length];
    if (next === undefined) return -1;
    if (next === 0x3e || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d) return i;
  }
  return -1;
}

/**
 * Cuts `<DOC>` records out of a file's chunks. A `<DOC>` that is followed by another `<DOC>`
 * or by the end of the file before its `</DOC>` is a counted skip (`missing-end-tag`) at its
 * byte offset; bytes between records (comments, garbage) are ignored. Only the record being
 * read is kept, so memory is bounded by the largest record plus one chunk. A non-empty file
 * without any `<DOC>` is a DataError.
 */
/**
 * A record larger than this that has not ended is not a record: a `<DOC>` whose `</DOC>` was lost
 * would otherwise make the reader hold the rest of the file (and fail past Node's 4 GB Buffer).
 */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

export async function* splitDocs(chunks: AsyncIterable<Chunk>, file: string, ctx: ReadContext, maxRecordBytes = MAX_RECORD_BYTES): AsyncGenerator<RawDoc> {
  let buf: Buffer = Buffer.alloc(0);
  let base = 0; // file offset of buf[0]
  let start = -1; // start of the open record in buf, -1 while looking for one
  let scan = 0; // where the next search in buf begins (everything before was searched)
  let opened = 0;
  let bytesSeen = 0;
  // The first </DOC> at or after `scan` in this buf (-1: none to its end), found once per buf:
  // searched again from every <DOC> of a run of records without </DOC>, it made reading quadratic.
  let closeAt = -1;
  let closeFor: Buffer | undefined;
  const nextClose = (): number => {
    if (closeFor !== buf || (closeAt >= 0 && closeAt < scan)) {
      closeAt = buf.indexOf(CLOSE, scan);
      closeFor = buf;
    }
    return closeAt;
  };
  const missingEnd = (at: number) =>
    ctx.skip({ file, offset: at, reason: 'missing-end-tag', kind: 'skipped', detail: '<DOC> without </DOC>' });

  for await (const chunk of chunks) {
    bytesSeen += chunk.bytes.length;
    buf = buf.length === 0 ? chunk.bytes : Buffer.concat([buf, chunk.bytes]);
    for (;;) {
      if (start < 0) {
        const open = findOpen(buf, scan);
        if (open < 0) break;
        start = open;
        scan = open + OPEN.length;
        opened++;
      }
      const close = nextClose();
      const next = findOpen(buf, scan);
      if (next >= 0 && (close < 0 || next < close)) {
        missingEnd(base + start);
        start = next;
        scan = next + OPEN.length;
        opened++;
        continue;
      }
      if (close < 0) break;
      const end = close + CLOSE.length;
      yield { file, offset: base + start, bytes: buf.subarray(start, end) };
      start = -1;
      scan = end;
    }
    if (start >= 0 && buf.length - start > maxRecordBytes) {
      // Its end is lost (or it is not a record): pass over it up to the next <DOC>.
      ctx.skip({
        file,
        offset: base + start,
        reason: 'record-too-large',
        kind: 'skipped',
        detail: `<DOC> without </DOC> in the ${maxRecordBytes} bytes after it; passed over up to the next <DOC>`,
      });
      start = -1;
      scan = Math.max(scan, buf.length - CLOSE.length);
    }
    // Keep the open record, or a tail that may hold the first bytes of a tag.
    const keep = start >= 0 ? start : Math.max(scan, buf.length - CLOSE.length);
    scan = Math.max(scan, buf.length - CLOSE.length) - keep;
    if (start >= 0) start = 0;
    base += keep;
    buf = buf.subarray(keep);
  }
  if (start >= 0) missingEnd(base + start);
  // Zero documents from a non-empty file is a wrong format or path, never a result.
  if (bytesSeen > 0 && opened === 0) throw new DataError(`${file}: byte 0: no <DOC> record found (not a TREC file?)`);
}

/**
 * Records are read as UTF-8 (TREC collections declare no charset per record); bytes that are
 * not valid UTF-8 are decoded as windows-1252, the usual legacy charset of GOV2-era pages, and
 * the record is counted as `recovered` (it stays in the corpus) so a mis-decoded collection is
 * noticed. The id is needed for the report, so parsers decode first and report afterwards.
 */
export function decodeRecord(doc: RawDoc): Decoded {
  // Native validation first: this is on the hot path of every collection read.
  if (isUtf8(doc.bytes)) return { kind: 'exact', text: doc.bytes.toString('utf8') };
  return decodeCharset(doc.bytes, undefined);
}

export function reportFallback(doc: RawDoc, id: string, decoded: Decoded, ctx: ReadContext): void {
  if (decoded.kind === 'exact') return;
  ctx.skip({ file: doc.file, offset: doc.offset, id, reason: 'invalid-utf8', kind: 'recovered', detail: decoded.problem });
}

/** The trimmed content of the first `<tag>…</tag>` in `s`, or undefined. */
export function elementText(s: string, tag: string): string | undefined {
  const open = s.indexOf(`<${tag}>`);
  if (open < 0) return undefined;
  const from = open + tag.length + 2;
  const close = s.indexOf(`</${tag}>`, from);
  return close < 0 ? undefined : s.slice(from, close).trim();
}

/** An opening tag of a content-bearing element, up to its name: `<TEXT>` or `<TEXT attr…>`. */
const TEXT_OPEN = /<(HEADLINE|HEAD|HL|TITLE|TTL|TEXT|LP|LEADPARA)(?=[\s>])/g;

/**
 * The contents of the content-bearing elements of `s`, in document order: each from the `>` of
 * its opening tag to the first end tag of the same name (what the regex
 * `<(NAME)(?:\s[^>]*)?>([\s\S]*?)<\/\1>` matches, in linear time: that regex searched to the end
 * of the record from every opening tag that has no end tag, which made a record of many
 * unclosed `<TEXT>` take minutes).
 */
/** The elements whose first one gives `meta.title`: headlines and titles. */
const TITLE_ELEMENTS = new Set(['HEADLINE', 'HEAD', 'HL', 'TITLE', 'TTL']);

export function textElements(s: string): string[] {
  return namedTextElements(s).map((e) => e.content);
}

/** `textElements` with each element's name. */
export function namedTextElements(s: string): { readonly name: string; readonly content: string }[] {
  const parts: { name: string; content: string }[] = [];
  // Per name, the next end tag at or after where it was last looked for (-1: none to the end).
  const nextEnd = new Map<string, number>();
  let nextGt = -2; // the next '>' at or after where it was last looked for (-1: none), -2: not yet looked for
  TEXT_OPEN.lastIndex = 0;
  for (let m = TEXT_OPEN.exec(s); m !== null; m = TEXT_OPEN.exec(s)) {
    const name = m[1] as string;
    const afterName = m.index + name.length + 1;
    if (nextGt === -2 || (nextGt >= 0 && nextGt < afterName)) nextGt = s.indexOf('>', afterName);
    if (nextGt < 0) break; // no opening tag can be complete any more
    const from = nextGt + 1;
    const close = `</${name}>`;
    let end = nextEnd.get(name);
    if (end === undefined || (end >= 0 && end < from)) {
      end = s.indexOf(close, from);
      nextEnd.set(name, end);
    }
    if (end < 0) continue; // this one is not closed; a later opening tag of another name may be
    parts.push({ name, content: s.slice(from, end) });
    TEXT_OPEN.lastIndex = end + close.length;
  }
  return parts;
}
const DOC_ID_ATTR = /^<DOC\s[^>]*\bid\s*=\s*"([^"]*)"/;

/** Parses one TREC disks record; undefined (and a counted skip) when it has no id. */
export function parseTrecDoc(doc: RawDoc, ctx: ReadContext): Document | undefined {
  const decoded = decodeRecord(doc);
  const s = decoded.text;
  // The NTCIR variant has no DOCNO but `<DOC id="…">`.
  const id = elementText(s, 'DOCNO') ?? DOC_ID_ATTR.exec(s)?.[1]?.trim();
  if (!id) {
    ctx.skip({ file: doc.file, offset: doc.offset, reason: 'missing-docno', kind: 'skipped', detail: '<DOC> without <DOCNO>' });
    return undefined;
  }
  reportFallback(doc, id, decoded, ctx);
  const parts: string[] = [];
  let title: string | undefined;
  for (const e of namedTextElements(s)) {
    parts.push(e.content);
    if (title === undefined && TITLE_ELEMENTS.has(e.name)) title = htmlToDocument(e.content).text.replace(/\s+/g, ' ').trim() || undefined;
  }
  const page = htmlToDocument(parts.join('\n'));
  const meta = { ...(title ? { title } : {}), ...(page.tagged !== '' ? { tagged: page.tagged } : {}) };
  return Object.keys(meta).length > 0 ? { id, text: page.text, meta } : { id, text: page.text };
}

/** The `<DOC>` records of `files`, in order (the framing both TREC formats share). */
export async function* docRecords(files: readonly string[], ctx: ReadContext): AsyncGenerator<RawDoc> {
  for (const file of files) yield* splitDocs(readFileChunks(file, ctx), file, ctx);
}

/** The worker side of the reader (corpus/parallel.ts). */
export const parseTrecDocs = batchParser(parseTrecDoc);
const parser: RecordParser<RawDoc> = { parse: parseTrecDoc, batch: workerModule<typeof Trec>(new URL('./trec.ts', import.meta.url).href).task('parseTrecDocs') };

export const trecReader: CorpusReader = {
  format: 'trec',
  meta: ['title', 'tagged'],
  description: 'TREC disks SGML: <DOC><DOCNO>…</DOCNO>…<TEXT>…</TEXT></DOC> (plain, gzip or a directory of them)',
  async *read(path: string, _options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
    const files = await listInputFiles(path);
    yield* readRecords((c) => docRecords(files, c), parser, ctx, estimatedBytes(files));
  },
};
