/**
 * Reading a collection on every core. A reader is split in two: `frames` cuts records out of
 * the input on the calling thread (cheap byte scanning, and the only part that needs the
 * files' order), and `parse` turns one record into a document (decoding, MIME, HTML to text:
 * the expensive part). `readRecords` runs the parses on worker threads, in batches, and hands
 * the documents and skips on in exactly the order a sequential read reports them: a batch holds
 * the framing skips and records in the order framing produced them, and it is replayed in that
 * order once its records are parsed. So documents, skip lists (files, offsets, ids) and where a
 * `--strict` read stops are the same with one thread or many.
 *
 * Whether a read parses on threads, and on whose, the runtime decides (runtime/read-threads.ts):
 * small inputs are parsed on the calling thread (starting threads would cost more than it
 * saves), and so is everything when the machine has one core.
 */
import type { WorkerTask } from '../../contract/index.ts';
import { DataError, UserError } from '../errors.ts';
import { ownReadThreads } from '../runtime/read-threads.ts';
import type { Document, ReadContext, Skip } from './types.ts';

/** A record framed on the calling thread: any structured-cloneable object; its `bytes`, if any, travel packed with the batch's. */
export interface RawRecord {
  readonly bytes?: Uint8Array;
}

/** Parses one record; reports skips through `ctx`; undefined when the record gives no document. */
export type ParseRecord<R> = (record: R, ctx: ReadContext) => Document | undefined | Promise<Document | undefined>;

/** How a reader's records are parsed, on this thread (`parse`) or on a worker (`batch`, an export made by `batchParser`). */
export interface RecordParser<R> {
  readonly parse: ParseRecord<R>;
  readonly batch: WorkerTask<PackedBatch, ParsedBatch>;
  /**
   * False when parsing a record costs less than moving it to a thread and its document back
   * (JSONL: JSON.parse is native and fast): then only an explicit thread count parses on threads.
   */
  readonly worthThreads?: boolean;
}

/** An error thrown while parsing a record, as data (a worker cannot post the error object itself). */
interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly code?: string;
  readonly path?: string;
}

/**
 * What parsing a batch gave, column by column (a few arrays of strings clone much faster than
 * an object a record): record `i`'s skips are those with `skipAt` = i, in order, then its
 * error (if `errorAt` holds i) or its document (`docAt[i]` ≥ 0 indexes `ids`, `texts`, `metas`).
 */
export interface ParsedBatch {
  readonly ids: string[];
  readonly texts: string[];
  readonly metas: (Record<string, string> | null)[];
  readonly docAt: Int32Array;
  readonly skips: Skip[];
  readonly skipAt: number[];
  readonly errors: ErrorData[];
  readonly errorAt: number[];
}

/** A batch as it travels: every record's bytes in one buffer (transferred, not copied), `bounds` their [start, end) (-1: no bytes). */
export interface PackedBatch {
  readonly buffer: Uint8Array;
  readonly bounds: Float64Array;
  readonly records: readonly object[];
}

function toData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const err = e as NodeJS.ErrnoException;
  return {
    name: err.name,
    message: err.message,
    ...(err.stack === undefined ? {} : { stack: err.stack }),
    ...(typeof err.code === 'string' ? { code: err.code } : {}),
    ...(typeof err.path === 'string' ? { path: err.path } : {}),
  };
}

/** The error a record's parse threw, of the same class where the harness tells classes apart. */
function fromData(d: ErrorData): Error {
  const err = d.name === 'DataError' ? new DataError(d.message) : d.name === 'UserError' ? new UserError(d.message) : new Error(d.message);
  if (d.name !== err.name) Object.defineProperty(err, 'name', { value: d.name });
  if (d.stack !== undefined) err.stack = d.stack;
  if (d.code !== undefined) (err as NodeJS.ErrnoException).code = d.code;
  if (d.path !== undefined) (err as NodeJS.ErrnoException).path = d.path;
  return err;
}

/**
 * The worker side of a parser: a module exports `batchParser(parse)` under the name its
 * RecordParser gives as `batch`.
 */
export function batchParser<R extends object>(parse: ParseRecord<R>): (batch: PackedBatch) => Promise<ParsedBatch> {
  return async (batch) => {
    const n = batch.records.length;
    const out: ParsedBatch = { ids: [], texts: [], metas: [], docAt: new Int32Array(n).fill(-1), skips: [], skipAt: [], errors: [], errorAt: [] };
    const buf = Buffer.from(batch.buffer.buffer, batch.buffer.byteOffset, batch.buffer.byteLength);
    for (let i = 0; i < n; i++) {
      const start = batch.bounds[2 * i]!;
      const rest = batch.records[i]!;
      const record = (start < 0 ? rest : { ...rest, bytes: buf.subarray(start, batch.bounds[2 * i + 1]!) }) as R;
      const ctx: ReadContext = {
        skip: (s) => {
          out.skips.push(s);
          out.skipAt.push(i);
        },
      };
      try {
        const doc = await parse(record, ctx);
        if (doc) {
          out.docAt[i] = out.ids.length;
          out.ids.push(doc.id);
          out.texts.push(doc.text);
          out.metas.push(doc.meta ?? null);
        }
      } catch (e) {
        out.errors.push(toData(e));
        out.errorAt.push(i);
      }
    }
    return out;
  };
}

/** A batch closes at this many bytes of records or this many records. */
const BATCH_BYTES = 1 << 20;
const BATCH_RECORDS = 256;

type Event = { readonly skip: Skip } | { readonly record: number } | { readonly error: unknown };

interface Batch {
  readonly events: Event[];
  readonly records: object[];
  bytes: number;
  result?: Promise<ParsedBatch | undefined>;
}

function pack(records: readonly object[]): PackedBatch {
  let total = 0;
  for (const r of records) total += (r as RawRecord).bytes?.byteLength ?? 0;
  const buffer = new Uint8Array(total);
  const bounds = new Float64Array(2 * records.length);
  let at = 0;
  const rests = records.map((r, i) => {
    const { bytes, ...rest } = r as RawRecord & Record<string, unknown>;
    if (bytes) {
      buffer.set(bytes, at);
      bounds[2 * i] = at;
      at += bytes.byteLength;
      bounds[2 * i + 1] = at;
      return rest;
    }
    bounds[2 * i] = -1;
    bounds[2 * i + 1] = -1;
    return r;
  });
  return { buffer, bounds, records: rests };
}

/**
 * The documents of the records `frames` cuts out, parsed by `parser`: on this thread when the
 * runtime lends no threads for an input of `estimatedBytes` (exactly the sequential read), else
 * on worker threads with the same documents and skips in the same order.
 */
export async function* readRecords<R extends object>(
  frames: (ctx: ReadContext) => AsyncIterable<R>,
  parser: RecordParser<R>,
  ctx: ReadContext,
  estimatedBytes: number,
): AsyncGenerator<Document> {
  const lease = (ctx.threads ?? ownReadThreads).lease({
    estimatedBytes,
    ...(ctx.workers === undefined ? {} : { workers: ctx.workers }),
    ...(parser.worthThreads === undefined ? {} : { worthThreads: parser.worthThreads }),
    preload: parser.batch.moduleUrl,
  });
  if (!lease) {
    for await (const record of frames(ctx)) {
      const doc = await parser.parse(record, ctx);
      if (doc) yield doc;
    }
    return;
  }
  const { pool, queued } = lease;
  let completed = false;
  let building: Batch = { events: [], records: [], bytes: 0 };
  const framed = frames({ skip: (s) => void building.events.push({ skip: s }) })[Symbol.asyncIterator]();
  let framing = true;
  const inFlight: Batch[] = [];

  /** Frames until every thread has its batches queued or the input ends. */
  const fill = async (): Promise<void> => {
    while (framing && inFlight.length < queued) {
      try {
        const next = await framed.next();
        if (next.done === true) framing = false;
        else {
          building.events.push({ record: building.records.length });
          building.records.push(next.value);
          building.bytes += (next.value as RawRecord).bytes?.byteLength ?? 0;
        }
      } catch (e) {
        // Framing stops here; the error is thrown where a sequential read would throw it.
        building.events.push({ error: e });
        framing = false;
      }
      if (!framing || building.bytes >= BATCH_BYTES || building.records.length >= BATCH_RECORDS) {
        const batch = building;
        const packed = pack(batch.records);
        batch.records.length = 0;
        batch.result = packed.records.length === 0 ? Promise.resolve(undefined) : pool.run(parser.batch, packed);
        // An unobserved rejection would end the process before the batch's turn comes.
        batch.result.catch(() => undefined);
        inFlight.push(batch);
        building = { events: [], records: [], bytes: 0 };
      }
    }
  };

  try {
    for (;;) {
      await fill();
      const batch = inFlight.shift();
      if (!batch) break;
      const parsed = await batch.result!;
      let skip = 0;
      for (const event of batch.events) {
        if ('skip' in event) ctx.skip(event.skip);
        else if ('error' in event) throw event.error;
        else if (parsed) {
          const i = event.record;
          while (skip < parsed.skipAt.length && parsed.skipAt[skip] === i) ctx.skip(parsed.skips[skip++]!);
          // A record's error ends the read: only the first is ever reached.
          if (parsed.errorAt[0] === i) throw fromData(parsed.errors[0]!);
          const d = parsed.docAt[i]!;
          if (d >= 0) {
            const meta = parsed.metas[d];
            yield meta ? { id: parsed.ids[d]!, text: parsed.texts[d]!, meta } : { id: parsed.ids[d]!, text: parsed.texts[d]! };
          }
        }
      }
    }
    completed = true;
  } finally {
    await framed.return?.();
    await lease.release(completed);
  }
}
