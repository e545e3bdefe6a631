/**
 * TREC-web (format `trecweb`), the layout of GOV2 and WT10g:
 * `<DOC><DOCNO>id</DOCNO><DOCHDR>url\nHTTP headers…</DOCHDR>html</DOC>`.
 * The id is the DOCNO, `meta.url` the first line of the DOCHDR; the DOCHDR (crawl headers)
 * is not part of the text, which is the HTML after it through the shared normalization;
 * `meta.title` and `meta.tagged` come from that HTML (`htmlToDocument`).
 */
import { htmlMeta, htmlToDocument } from './html.ts';
import { estimatedBytes, listInputFiles } from './files.ts';
import { batchParser, readRecords, type RecordParser } from './parallel.ts';
import { decodeRecord, docRecords, elementText, reportFallback, type RawDoc } from './trec.ts';
import type { CorpusReader, Document, ReadContext } from './types.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as TrecWeb from './trecweb.ts';

const HDR_CLOSE = '</DOCHDR>';
const DOCNO_CLOSE = '</DOCNO>';
const DOC_CLOSE = '</DOC>';

/** Parses one TREC-web record; undefined (and a counted skip) when it has no DOCNO. */
export function parseTrecWebDoc(doc: RawDoc, ctx: ReadContext): Document | undefined {
  const decoded = decodeRecord(doc);
  const s = decoded.text;
  const id = elementText(s, 'DOCNO');
  if (!id) {
    ctx.skip({ file: doc.file, offset: doc.offset, reason: 'missing-docno', kind: 'skipped', detail: '<DOC> without <DOCNO>' });
    return undefined;
  }
  reportFallback(doc, id, decoded, ctx);
  const header = elementText(s, 'DOCHDR');
  const url = header?.split('\n', 1)[0]?.trim();
  const hdrEnd = s.indexOf(HDR_CLOSE);
  const bodyStart = hdrEnd >= 0 ? hdrEnd + HDR_CLOSE.length : s.indexOf(DOCNO_CLOSE) + DOCNO_CLOSE.length;
  const page = htmlToDocument(s.slice(bodyStart, s.length - DOC_CLOSE.length));
  const meta = { ...(url ? { url } : {}), ...htmlMeta(page) };
  return Object.keys(meta).length > 0 ? { id, text: page.text, meta } : { id, text: page.text };
}

/** The worker side of the reader (corpus/parallel.ts). */
export const parseTrecWebDocs = batchParser(parseTrecWebDoc);
const parser: RecordParser<RawDoc> = { parse: parseTrecWebDoc, batch: workerModule<typeof TrecWeb>(new URL('./trecweb.ts', import.meta.url).href).task('parseTrecWebDocs') };

export const trecWebReader: CorpusReader = {
  format: 'trecweb',
  meta: ['url', 'title', 'tagged'],
  description: 'TREC-web (GOV2, WT10g): <DOC><DOCNO>…</DOCNO><DOCHDR>url…</DOCHDR>html</DOC> (plain, gzip or a directory of them)',
  async *read(path: string, _options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
    const files = await listInputFiles(path);
    yield* readRecords((c) => docRecords(files, c), parser, ctx, estimatedBytes(files));
  },
};
