import { resolve } from 'node:path';
import { clip, DataError, escapeControls, quote, UserError } from '../errors.ts';
import { fingerprintCorpus, type FileSetFingerprint } from './fingerprints.ts';
import { cachedEvents, cacheKey, MIN_CACHED_BYTES, type CacheOutcome, type CorpusCacheOptions, type ReaderEvent } from './cache.ts';
import { corpusFormats, findCorpusReader, readerLocation } from './registry.ts';
import type { CorpusReader, Document, ParsePool, ReadContext, Skip } from './types.ts';

export interface ReadOptions {
  format: string;
  /** The reader's path; some readers have a default corpus when it is omitted. */
  path?: string;
  /** Format-specific options, validated by the reader. */
  options?: Record<string, unknown>;
  /** Stop after this many kept documents. */
  limit?: number;
  /** Documents whose text is longer than this (UTF-8 bytes) are skipped; default 64 MiB. */
  maxDocumentBytes?: number;
  /** Any skip or recovery is a DataError instead of a counted skip. */
  strict?: boolean;
  /** Threads to parse on (see ReadContext.workers); default: automatic. */
  workers?: number;
  /** Running worker threads to parse on (see ReadContext.pool). */
  pool?: ParsePool;
  /** Replay the reader's documents and skips from this cache (corpus/cache.ts), or fill it. */
  cache?: CorpusCacheOptions;
  /** The fingerprint of the corpus files, when the caller took it already (a run does, of its inputs), by the cache's method. */
  inputs?: FileSetFingerprint;
}

export interface CorpusStats {
  /** Documents the reader produced, before duplicate/empty/size filtering. */
  read: number;
  /** Documents handed on. */
  kept: number;
  /** Records left out, by reason. */
  skipped: Record<string, number>;
  /** Documents kept but read with a fallback, by reason. */
  recovered: Record<string, number>;
  /** The first `MAX_SKIPS_KEPT` skips and recoveries, in order. */
  skips: Skip[];
  /** What the corpus cache did: replayed the reader's output, wrote it, neither, or was not asked. */
  cache: CacheOutcome;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
export const MAX_SKIPS_KEPT = 1000;

export function newCorpusStats(): CorpusStats {
  return { read: 0, kept: 0, skipped: {}, recovered: {}, skips: [], cache: 'off' };
}

/** `file: byte N: reason (id): detail`, the one-line form of a skip. */
export function describeSkip(s: Skip): string {
  const at = s.offset === undefined ? '' : `: byte ${s.offset}`;
  // The id is the record's own (raw input); the whole line is escaped in case a reader forgot.
  const id = s.id === undefined ? '' : ` (${clip(s.id)})`;
  return escapeControls(`${s.file}${at}: ${s.reason}${id}: ${s.detail}`);
}

function countList(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
}

/**
 * The first skip of the commonest reason, which is what a user needs to see when nothing was
 * read (records keyed by other fields, say), without `--strict`: `; e.g. line 1: text field …`.
 */
function commonestSkip(stats: CorpusStats, shown: string): string {
  let reason: string | undefined;
  for (const [r, n] of Object.entries(stats.skipped)) if (reason === undefined || n > (stats.skipped[reason] ?? 0)) reason = r;
  const first = stats.skips.find((s) => s.kind === 'skipped' && s.reason === reason);
  if (!first) return '';
  const where = first.file === shown ? '' : ` in ${escapeControls(first.file)}`;
  // The detail quotes the record (raw input): clipped and escaped.
  return `; the first ${first.reason}${where}: ${clip(first.detail, 300)}`;
}

function positiveInteger(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new UserError(`corpus: ${name} must be a positive integer, got ${value}`);
  }
}

/** UTF-8 length without encoding the text when the answer is clear from its length alone. */
function exceedsBytes(text: string, max: number): boolean {
  if (text.length * 3 <= max) return false;
  if (text.length > max) return true;
  return Buffer.byteLength(text, 'utf8') > max;
}

/**
 * A reader's documents and its skips as one stream, in the order it reported them (a skip
 * reported before a document is yielded comes before it), for the cache to record.
 */
async function* readerEvents(reader: CorpusReader, path: string, options: Record<string, unknown>, base: Omit<ReadContext, 'skip'>): AsyncGenerator<ReaderEvent> {
  const skips: Skip[] = [];
  const it = reader.read(path, options, { ...base, skip: (s) => void skips.push(s) })[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<Document>;
      try {
        r = await it.next();
      } catch (e) {
        for (const s of skips.splice(0)) yield { skip: s };
        throw e;
      }
      for (const s of skips.splice(0)) yield { skip: s };
      if (r.done === true) return;
      yield { doc: r.value };
    }
  } finally {
    await it.return?.();
  }
}

/**
 * The one entry point for reading a corpus: finds the reader for `opts.format` and applies
 * the rules every format shares (duplicate ids, empty and oversized documents, limit,
 * strict), counting every skip in `stats`.
 */
export async function* readCorpus(opts: ReadOptions, stats: CorpusStats): AsyncIterable<Document> {
  const reader = findCorpusReader(opts.format);
  if (!reader) throw new UserError(`corpus: unknown format ${quote(opts.format)} (known: ${corpusFormats().join(', ')})`);
  positiveInteger(opts.limit, 'limit');
  positiveInteger(opts.maxDocumentBytes, 'maxDocumentBytes');
  const maxBytes = opts.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const shown = opts.path ?? `${opts.format} default corpus`;

  const record = (s: Skip): void => {
    const counts = s.kind === 'skipped' ? stats.skipped : stats.recovered;
    counts[s.reason] = (counts[s.reason] ?? 0) + 1;
    if (stats.skips.length < MAX_SKIPS_KEPT) stats.skips.push(s);
    if (opts.strict) throw new DataError(`${describeSkip(s)} (strict mode)`);
  };
  const skipDocument = (doc: Document, reason: string, detail: string): void =>
    record({ file: shown, id: doc.id, reason, detail, kind: 'skipped' });

  // Ids of kept documents: a duplicate of a skipped (empty, oversized) one is not a duplicate.
  const kept = new Set<string>();
  const path = opts.path ?? '';
  const options = opts.options ?? {};
  const base = { ...(opts.workers === undefined ? {} : { workers: opts.workers }), ...(opts.pool ? { pool: opts.pool } : {}) };
  // Without a path a reader either has a default corpus (its location) or says the path is missing.
  const cache = path === '' && !reader.location ? undefined : opts.cache;
  async function* documents(): AsyncGenerator<Document> {
    if (!cache) {
      yield* reader!.read(path, options, { ...base, skip: record });
      return;
    }
    const location = resolve(readerLocation(reader, path));
    const inputs = opts.inputs && resolve(opts.inputs.path) === location ? opts.inputs : await fingerprintCorpus(reader, path, options, cache.method);
    if (inputs.bytes < (cache.minBytes ?? MIN_CACHED_BYTES)) {
      yield* reader!.read(path, options, { ...base, skip: record });
      return;
    }
    const key = cacheKey({ format: opts.format, path, options, inputs });
    const events = cachedEvents(cache, key, { format: opts.format, path: shown, location }, () => readerEvents(reader!, path, options, base), (o) => {
      stats.cache = o;
    });
    for await (const event of events) {
      if ('skip' in event) record(event.skip);
      else yield event.doc;
    }
  }
  try {
    for await (const doc of documents()) {
      stats.read++;
      if (!/\S/.test(doc.text)) {
        skipDocument(doc, 'empty', 'no text after extraction');
      } else if (exceedsBytes(doc.text, maxBytes)) {
        skipDocument(doc, 'too-large', `text longer than ${maxBytes} bytes`);
      } else if (kept.has(doc.id)) {
        skipDocument(doc, 'duplicate-id', 'an earlier document has the same id; the first is kept');
      } else {
        // A reader's id is often a slice of the whole record's text, which V8 keeps alive as long
        // as the slice lives; the set of ids (and the caller) would hold every record. Copy it.
        // (A JSON round trip makes a flat copy and keeps even lone surrogates.)
        const id = JSON.parse(JSON.stringify(doc.id)) as string;
        kept.add(id);
        stats.kept++;
        yield { ...doc, id };
        if (opts.limit !== undefined && stats.kept >= opts.limit) return;
      }
    }
  } catch (e) {
    // A reader that lets a missing file escape still gives the user a one-line error.
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT' && typeof err.path === 'string') throw new UserError(`${err.path}: no such file or directory`, { cause: e });
    throw e;
  }
  if (stats.kept === 0) {
    const skipped = Object.values(stats.skipped).reduce((a, b) => a + b, 0);
    const why = skipped === 0 ? 'no records found' : `${skipped} records skipped: ${countList(stats.skipped)}`;
    throw new DataError(`${shown}: no documents read (${why})${commonestSkip(stats, shown)}`);
  }
}
