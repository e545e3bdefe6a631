import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { clip, DataError, quote, UserError } from '../errors.ts';
import { estimatedBytes } from './files.ts';
import { batchParser, readRecords, type RecordParser } from './parallel.ts';
import { DEFAULT_RECORD_FIELDS, documentParts, parseFieldPath, type FieldPath, type RecordFields } from './record-fields.ts';
import type { CorpusReader, Document, ReadContext } from './types.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Jsonl from './jsonl.ts';

/** One line of a file: its bytes without the line end, 1-based number, byte offset. */
interface Line {
  readonly bytes: Buffer;
  readonly number: number;
  readonly offset: number;
  /** the line was longer than the limit: `bytes` is empty, the line was dropped as it streamed */
  readonly tooLong?: true;
}

/**
 * A line longer than this is not a record (a document's text is at most 64 MB by default):
 * held whole, a file without line ends would fill memory and fail past Node's 4 GB Buffer.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

const JSONL_FILE = /\.jsonl(\.gz)?$/;
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** The files of a corpus: the path itself, or every *.jsonl[.gz] under a folder in name order. */
async function corpusFiles(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`${path}: no such file or directory`);
    throw e;
  }
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && JSONL_FILE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  if (files.length === 0) throw new DataError(`${path}: no .jsonl or .jsonl.gz files in this folder`);
  return files;
}

function open(file: string): Readable {
  const source = createReadStream(file);
  if (!file.endsWith('.gz')) return source;
  // pipeline forwards an error of either stream to the one we iterate, and destroys the
  // file stream when the reader stops early.
  return pipeline(source, createGunzip(), () => {});
}

/**
 * Splits a byte stream into lines, keeping exact byte offsets (readline decodes first and
 * also breaks on a lone CR, which would make offsets wrong). Holds one line at a time.
 */
async function* splitLines(stream: AsyncIterable<Buffer>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<Line> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let dropping = false; // the line being read is over the limit: its bytes are not kept
  let offset = 0; // of the line being assembled
  let number = 1;
  let consumed = 0; // bytes of the stream before the current chunk
  for await (const chunk of stream) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const tail = chunk.subarray(start, nl);
      if (dropping || carryBytes + tail.length > maxLineBytes) {
        yield { bytes: Buffer.alloc(0), number, offset, tooLong: true };
      } else {
        let bytes = carry.length === 0 ? tail : Buffer.concat([...carry, tail]);
        if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
        yield { bytes, number, offset };
      }
      [carry, carryBytes, dropping] = [[], 0, false];
      number++;
      start = nl + 1;
      offset = consumed + start;
    }
    if (start < chunk.length && !dropping) {
      carry.push(chunk.subarray(start));
      carryBytes += chunk.length - start;
      if (carryBytes > maxLineBytes) [carry, carryBytes, dropping] = [[], 0, true];
    }
    consumed += chunk.length;
  }
  if (dropping) yield { bytes: Buffer.alloc(0), number, offset, tooLong: true };
  else if (carry.length > 0) {
    let bytes = Buffer.concat(carry);
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    yield { bytes, number, offset };
  }
}

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/** A parsed line: a document, or why it is not one. */
type Parsed = { readonly ok: true; readonly doc: Document } | { readonly ok: false; readonly reason: string; readonly problem: string; readonly id?: string };

function parseRecord(text: string, fields: RecordFields): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // V8 quotes a few characters of the line in its message: raw input, so escaped.
    return { ok: false, reason: 'invalid-json', problem: clip((e as Error).message, 200) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'bad-record', problem: 'not a JSON object' };
  }
  const parts = documentParts(value as Record<string, unknown>, fields, OPTION_NAMES);
  if (!parts.ok) return { ok: false, reason: 'bad-record', problem: parts.problem, ...(parts.id === undefined ? {} : { id: parts.id }) };
  return { ok: true, doc: { id: parts.id, text: parts.text, ...(parts.meta ? { meta: parts.meta } : {}) } };
}

/** A non-blank line of a file, to parse on any thread. */
interface Record_ {
  readonly file: string;
  readonly fields: RecordFields;
  readonly number: number;
  readonly offset: number;
  readonly bytes: Buffer;
}

async function* fileLines(file: string, fields: RecordFields, ctx: ReadContext, maxLineBytes: number): AsyncGenerator<Record_> {
  let lastOffset = 0;
  try {
    for await (const line of splitLines(open(file), maxLineBytes)) {
      lastOffset = line.offset;
      if (line.tooLong) {
        const detail = `line ${line.number}: longer than ${maxLineBytes} bytes; passed over`;
        ctx.skip({ file, offset: line.offset, reason: 'line-too-long', detail, kind: 'skipped' });
        continue;
      }
      if (isBlank(line.bytes)) continue;
      yield { file, fields, number: line.number, offset: line.offset, bytes: line.bytes };
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) {
      throw new DataError(`${file}: corrupt or truncated gzip near uncompressed byte ${lastOffset}: ${(e as Error).message}`, { cause: e });
    }
    throw e;
  }
}

function parseLine(line: Record_, ctx: ReadContext): Document | undefined {
  let bytes = line.bytes;
  // A UTF-8 byte order mark would make JSON.parse fail on the first line.
  if (line.offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  let text: string;
  let invalidUtf8 = false;
  try {
    text = utf8Strict.decode(bytes);
  } catch {
    text = bytes.toString('utf8');
    invalidUtf8 = true;
  }
  const parsed = parseRecord(text, line.fields);
  const where = { file: line.file, offset: line.offset };
  if (!parsed.ok) {
    const hint = line.number === 1 && parsed.reason === 'invalid-json' ? notJsonLines(text) : '';
    ctx.skip({ ...where, id: parsed.id, reason: parsed.reason, detail: `line ${line.number}: ${parsed.problem}${hint}`, kind: 'skipped' });
    return undefined;
  }
  if (invalidUtf8) {
    ctx.skip({ ...where, id: parsed.doc.id, reason: 'invalid-utf8', detail: `line ${line.number}: invalid UTF-8 bytes replaced by U+FFFD`, kind: 'recovered' });
  }
  return parsed.doc;
}

/**
 * Why a first line that is not JSON may be a JSON file rather than JSON Lines: one array of the
 * records, or one object spread over lines (pretty-printed). Empty when neither.
 */
function notJsonLines(text: string): string {
  const first = text.trimStart()[0];
  if (first === '[') return " (the file begins with '[': one JSON array is not JSON Lines, one object a line; `jq -c '.[]' in.json > out.jsonl` converts it)";
  if (first === '{') return ' (a record spread over several lines? JSON Lines wants each object on one line; `jq -c . in.json > out.jsonl` converts it)';
  return '';
}

/** The worker side of the reader (corpus/parallel.ts). */
export const parseLines = batchParser(parseLine);
// JSON.parse is native and fast: moving a line to a thread and its document back costs more.
const parser: RecordParser<Record_> = { parse: parseLine, batch: workerModule<typeof Jsonl>(new URL('./jsonl.ts', import.meta.url).href).task('parseLines'), worthThreads: false };

async function* lines(files: readonly string[], fields: RecordFields, ctx: ReadContext, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<Record_> {
  for (const file of files) yield* fileLines(file, fields, ctx, maxLineBytes);
}

/** One file's documents, read on this thread (`maxLineBytes` lowered by the tests). */
export function readJsonlFile(file: string, ctx: ReadContext, maxLineBytes = MAX_LINE_BYTES, fields: RecordFields = DEFAULT_RECORD_FIELDS): AsyncGenerator<Document> {
  return readRecords((c) => lines([file], fields, c, maxLineBytes), parser, { ...ctx, workers: 1 }, 0);
}

/** The config keys that choose the fields, as messages name them. */
const OPTION_NAMES = { id: 'id_field', text: 'text_field' } as const;

/** The reader's options (`corpus.id_field`, `text_field`, `meta_fields`), checked; a config error names the key. */
export function jsonlFields(options: Record<string, unknown>): RecordFields {
  const known = new Set<string>([OPTION_NAMES.id, OPTION_NAMES.text, 'meta_fields']);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new UserError(`jsonl: unknown option ${quote(key)} (known: ${[...known].join(', ')})`);
  }
  const path = (key: string, given: unknown, fallback: FieldPath): FieldPath => {
    if (given === undefined) return fallback;
    const parsed = typeof given === 'string' ? parseFieldPath(given) : undefined;
    if (!parsed) throw new UserError(`jsonl: corpus.${key} must be a field name or a dotted path (a.b), got ${quote(String(given))}`);
    return parsed;
  };
  const meta = options['meta_fields'];
  if (meta !== undefined && !Array.isArray(meta)) throw new UserError('jsonl: corpus.meta_fields must be a list of field names or dotted paths');
  return {
    id: path(OPTION_NAMES.id, options[OPTION_NAMES.id], DEFAULT_RECORD_FIELDS.id),
    text: path(OPTION_NAMES.text, options[OPTION_NAMES.text], DEFAULT_RECORD_FIELDS.text),
    ...(meta === undefined ? {} : { meta: (meta as unknown[]).map((m) => path('meta_fields', m, [])) }),
  };
}

async function* read(path: string, options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
  const fields = jsonlFields(options);
  if (path === '') throw new UserError('jsonl: corpus.path is required (a .jsonl[.gz] file or a folder of them)');
  const files = await corpusFiles(path);
  yield* readRecords((c) => lines(files, fields, c), parser, ctx, estimatedBytes(files));
}

export const jsonlReader: CorpusReader = {
  format: 'jsonl',
  meta: 'any',
  description: 'One JSON object a line: {"id": string or integer, "text": string, "meta"?: {string: string}} (id_field, text_field, meta_fields choose other fields); .gz gunzipped; a file or a folder',
  read,
};
