/**
 * A collection of HTML files (format `html`), as CACM ships in Anserini: `path` is a folder
 * (walked in byte order), a `.tar` or a `.tar.gz`/`.tgz` (also inside a folder), or one HTML
 * file. Every `.html`/`.htm` file is one document whose id is its base name without the
 * extension (`CACM-0001.html` → `CACM-0001`), the id TREC runs and qrels use; `meta.file` is
 * its path inside the archive or folder. Any other file is a counted skip (`not-html`).
 */
import { readFileSync } from 'node:fs';
import { basename, posix, relative } from 'node:path';
import { DataError, quote } from '../errors.ts';
import { estimatedBytes, listInputFiles, readFileChunks } from './files.ts';
import { htmlMeta, htmlToDocument } from './html.ts';
import { MAX_ENTRY_BYTES, tarEntries, TarError, type TarEnd, type TarEntry } from './tar.ts';
import { batchParser, readRecords, type RecordParser } from './parallel.ts';
import { decodeRecord, reportFallback, type RawDoc } from './trec.ts';
import type { CorpusReader, Document, ReadContext } from './types.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as HtmlFiles from './html-files.ts';

const HTML_NAME = /\.html?$/i;
const TAR_NAME = /\.(tar|tar\.gz|tgz)$/i;

/** The document id of an HTML file name: the base name without `.html`/`.htm`. */
export function htmlDocumentId(name: string): string {
  return posix.basename(name.replaceAll('\\', '/')).replace(HTML_NAME, '');
}

/** One HTML file's bytes as a document: UTF-8, or windows-1252 counted as `recovered`. */
function toDocument(raw: RawDoc, inner: string, ctx: ReadContext): Document {
  const id = htmlDocumentId(inner);
  const decoded = decodeRecord(raw);
  reportFallback(raw, id, decoded, ctx);
  const page = htmlToDocument(decoded.text);
  return { id, text: page.text, meta: { file: inner, ...htmlMeta(page) } };
}

const notHtml = (ctx: ReadContext, file: string, inner: string, offset?: number): void =>
  ctx.skip({
    file,
    ...(offset === undefined ? {} : { offset }),
    reason: 'not-html',
    kind: 'skipped',
    // A name from an archive is raw input: quoted (escaped, at most 80 characters).
    detail: `${quote(inner)} is not an .html or .htm file`,
  });

/** An HTML file to parse: an archive entry with its bytes, or a file of a folder that the parsing thread reads. */
interface Page {
  readonly file: string;
  readonly inner: string;
  readonly offset?: number;
  readonly bytes?: Buffer;
}

/** The HTML entries of one tar archive, one at a time. */
async function* readArchive(file: string, ctx: ReadContext): AsyncGenerator<Page> {
  const bytes = (async function* () {
    for await (const chunk of readFileChunks(file, ctx)) yield chunk.bytes;
  })();
  const entries = tarEntries(bytes);
  let end: TarEnd;
  try {
    for (;;) {
      const r: IteratorResult<TarEntry, TarEnd> = await entries.next();
      if (r.done === true) {
        end = r.value;
        break;
      }
      const e = r.value;
      if (e.tooLarge) {
        const detail = `${quote(e.path)} is ${e.size} bytes, more than ${MAX_ENTRY_BYTES}: passed over`;
        ctx.skip({ file, offset: e.offset, reason: 'record-too-large', kind: 'skipped', detail });
      } else if (HTML_NAME.test(e.path)) yield { file, inner: e.path, offset: e.offset, bytes: e.data };
      else notHtml(ctx, file, e.path, e.offset);
    }
  } catch (e) {
    if (e instanceof TarError) throw new DataError(`${file}: ${e.message}`, { cause: e });
    throw e;
  } finally {
    // Closes the file when the caller stops early (a `limit`) or an error ends the read.
    await entries.return({ kind: 'complete' });
  }
  // Offset 0: the file was empty, which readFileChunks has counted already.
  if (end.kind === 'truncated' && end.offset > 0) {
    ctx.skip({
      file,
      offset: end.offset,
      reason: 'truncated-tar',
      kind: 'skipped',
      detail: `${end.problem}; the entries before it are kept, any after it are lost`,
    });
  }
}

async function* pages(path: string, files: readonly string[], ctx: ReadContext): AsyncGenerator<Page> {
  for (const file of files) {
    const inner = file === path ? basename(file) : relative(path, file).replaceAll('\\', '/');
    if (TAR_NAME.test(file)) yield* readArchive(file, ctx);
    else if (HTML_NAME.test(file)) yield { file, inner };
    else notHtml(ctx, file, inner);
  }
}

function parsePage(page: Page, ctx: ReadContext): Document {
  let bytes = page.bytes;
  if (bytes === undefined) {
    try {
      bytes = readFileSync(page.file);
    } catch (e) {
      throw new DataError(`${page.file}: cannot read: ${(e as Error).message}`);
    }
  }
  return toDocument({ file: page.file, offset: page.offset ?? 0, bytes }, page.inner, ctx);
}

/** The worker side of the reader (corpus/parallel.ts). */
export const parsePages = batchParser(parsePage);
const parser: RecordParser<Page> = { parse: parsePage, batch: workerModule<typeof HtmlFiles>(new URL('./html-files.ts', import.meta.url).href).task('parsePages') };

export const htmlFilesReader: CorpusReader = {
  format: 'html',
  meta: ['file', 'title', 'tagged'],
  description: 'HTML files, one document each (id: file name without .html): a folder, a .tar or a .tar.gz of them',
  async *read(path: string, _options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
    const files = await listInputFiles(path);
    yield* readRecords((c) => pages(path, files, c), parser, ctx, estimatedBytes(files));
  },
};
