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
 * Small inputs are parsed on the calling thread (starting threads would cost more than it
 * saves), and so is everything when the machine has one core.
 */
import { availableParallelism } from 'node:os';
import { DataError, UserError } from '../errors.ts';
import { WorkerPool } from '../mapreduce/local/pool.ts';
import type { Document, ReadContext, Skip } from './types.ts';

/** A record framed on the calling thread: any structured-cloneable object; its `bytes`, if any, travel packed with the batch's. */
export interface RawRecord {
  readonly bytes?: Uint8Array;
}

/** Parses one record; reports skips through `ctx`; undefined when the record gives no document. */
export type ParseRecord<R> = (record: R, ctx: ReadContext) => Document | undefined | Promise<Document | undefined>;

/** How a reader's records are parsed, on this thread (`parse`) or on a worker (the `batch` export of `moduleUrl`, see `batchParser`). */
export interface RecordParser<R> {
  readonly parse: ParseRecord<R>;
  readonly moduleUrl: string;
  readonly batch: string;
}

/** An error thrown while parsing a record, as data (a worker cannot post the error object itself). */
interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly code?: string;
  readonly path?: string;
}

/** What parsing one record gave: its skips in order, then its document or the error it threw. */
interface Parsed {
  readonly skips: Skip[];
  readonly doc?: Document;
  readonly error?: ErrorData;
}

/** A batch as it travels: every record's bytes in one buffer (transferred, not copied). */
interface PackedBatch {
  readonly buffer: Uint8Array;
  readonly records: readonly { readonly record: object; readonly start: number; readonly end: number }[];
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

async function parseOne<R>(parse: ParseRecord<R>, record: R): Promise<Parsed> {
  const skips: Skip[] = [];
  try {
    const doc = await parse(record, { skip: (s) => skips.push(s) });
    return doc ? { skips, doc } : { skips };
  } catch (e) {
    return { skips, error: toData(e) };
  }
}

/**
 * The worker side of a parser: a module exports `batchParser(parse)` under the name its
 * RecordParser gives as `batch`.
 */
export function batchParser<R extends object>(parse: ParseRecord<R>): (batch: PackedBatch) => Promise<Parsed[]> {
  return async (batch) => {
    const out: Parsed[] = [];
    const buf = Buffer.from(batch.buffer.buffer, batch.buffer.byteOffset, batch.buffer.byteLength);
    for (const r of batch.records) {
      const record = (r.end > r.start || 'bytes' in r.record ? { ...r.record, bytes: buf.subarray(r.start, r.end) } : r.record) as R;
      out.push(await parseOne(parse, record));
    }
    return out;
  };
}

/** Inputs at least this large (estimated, uncompressed) are parsed on worker threads. */
export const PARALLEL_MIN_BYTES = 8 * 1024 * 1024;
/** A batch closes at this many bytes of records or this many records. */
const BATCH_BYTES = 1 << 20;
const BATCH_RECORDS = 256;

/** The number of threads to parse on: `ctx.workers` when given, else every core for a large input. */
export function parseThreads(ctx: ReadContext, estimatedBytes: number): number {
  if (ctx.workers !== undefined) return ctx.workers;
  return estimatedBytes >= PARALLEL_MIN_BYTES ? Math.min(availableParallelism(), 8) : 1;
}

/**
 * The threads of the last read stay for this long after it ends, so that reads in a row (the
 * tests, a corpus and its studies) start their threads once; they never keep the process alive.
 */
const IDLE_MS = 2000;
let idle: { readonly pool: WorkerPool; readonly timer: NodeJS.Timeout } | undefined;

function acquirePool(threads: number): WorkerPool {
  if (idle) {
    clearTimeout(idle.timer);
    const { pool } = idle;
    idle = undefined;
    if (pool.size === threads) return pool;
    void pool.close();
  }
  return new WorkerPool(threads);
}

/** A read that ran to its end leaves its threads idle; any other end (an error, a limit, an abort) stops them now. */
async function releasePool(pool: WorkerPool, completed: boolean): Promise<void> {
  if (!completed || idle) return pool.close();
  idle = { pool, timer: setTimeout(() => void releaseIdle(pool), IDLE_MS).unref() };
}

async function releaseIdle(pool: WorkerPool): Promise<void> {
  if (idle?.pool === pool) idle = undefined;
  await pool.close();
}

type Event = { readonly skip: Skip } | { readonly record: number } | { readonly error: unknown };

interface Batch {
  readonly events: Event[];
  readonly records: object[];
  bytes: number;
  result?: Promise<Parsed[]>;
}

function pack(records: readonly object[]): PackedBatch {
  let total = 0;
  for (const r of records) total += (r as RawRecord).bytes?.byteLength ?? 0;
  const buffer = new Uint8Array(total);
  let at = 0;
  const packed = records.map((r) => {
    const { bytes, ...rest } = r as RawRecord & Record<string, unknown>;
    const start = at;
    if (bytes) {
      buffer.set(bytes, at);
      at += bytes.byteLength;
    }
    return { record: bytes ? { ...rest, bytes: null } : rest, start, end: at };
  });
  return { buffer, records: packed };
}

/**
 * The documents of the records `frames` cuts out, parsed by `parser`: on this thread when
 * `threads` is 1 (exactly the sequential read), else on `threads` worker threads with the same
 * documents and skips in the same order.
 */
export async function* readRecords<R extends object>(
  frames: (ctx: ReadContext) => AsyncIterable<R>,
  parser: RecordParser<R>,
  ctx: ReadContext,
  threads: number,
): AsyncGenerator<Document> {
  if (threads <= 1) {
    for await (const record of frames(ctx)) {
      const doc = await parser.parse(record, ctx);
      if (doc) yield doc;
    }
    return;
  }
  const pool = acquirePool(threads);
  pool.warm([parser.moduleUrl]);
  let completed = false;
  let building: Batch = { events: [], records: [], bytes: 0 };
  const framed = frames({ skip: (s) => void building.events.push({ skip: s }) })[Symbol.asyncIterator]();
  let framing = true;
  const inFlight: Batch[] = [];

  /** Frames until `threads * 2` batches are being parsed or the input ends. */
  const fill = async (): Promise<void> => {
    while (framing && inFlight.length < threads * 2) {
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
        batch.result = packed.records.length === 0 ? Promise.resolve([]) : pool.run<Parsed[]>(parser.moduleUrl, parser.batch, packed);
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
      for (const event of batch.events) {
        if ('skip' in event) ctx.skip(event.skip);
        else if ('error' in event) throw event.error;
        else {
          const p = parsed[event.record]!;
          for (const s of p.skips) ctx.skip(s);
          if (p.error) throw fromData(p.error);
          if (p.doc) yield p.doc;
        }
      }
    }
    completed = true;
  } finally {
    await framed.return?.();
    await releasePool(pool, completed);
  }
}
