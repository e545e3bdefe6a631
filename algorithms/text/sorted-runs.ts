/**
 * Sorted runs of fixed-width records on disk: the external-memory half of a kernel whose data
 * outgrows `memory_mb`. A record is `width` 32-bit words; runs are ordered by the first
 * `keyWords` words, most significant first. A kernel sorts what fits in memory
 * (kernels/sort/records.ts), writes it as a run (`writeRun`), and later streams several runs back in
 * key order (`mergeRunChunks`), as Hadoop's map side spills and its reduce side merges.
 *
 * The files are raw words in the machine's byte order: they are written and read by the same
 * process tree within one run, never kept. (The in-process text engine, harness/mapreduce/local/
 * engine.ts, has a sorted-run writer too, but for text key/value lines compared as strings,
 * which is what proves Hadoop semantics; binary records compared as integers are about ten
 * times cheaper to write, read and compare, which is what a kernel is for.)
 *
 * Worker threads cannot see an AbortSignal, so long loops poll a shared stop flag
 * (`stopFlag`, `throwIfStopped`) that the main thread sets when the run is interrupted.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/** Bytes of one record of `width` words. */
export function recordBytes(width: number): number {
  return width * 4;
}

/** A shared flag the main thread sets on abort; worker loops poll it (`throwIfStopped`). */
export function stopFlag(signal: AbortSignal): Int32Array {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const set = (): void => void Atomics.store(flag, 0, 1);
  if (signal.aborted) set();
  else signal.addEventListener('abort', set, { once: true });
  return flag;
}

export class StoppedError extends Error {
  constructor() {
    super('stopped: the run was interrupted');
    this.name = 'StoppedError';
  }
}

export function throwIfStopped(flag: Int32Array | undefined): void {
  if (flag !== undefined && Atomics.load(flag, 0) !== 0) throw new StoppedError();
}

/**
 * Appends records to a file. Views on SharedArrayBuffers are written without a copy, as are
 * plain ones.
 */
export class RunWriter {
  private readonly fd: number;
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(words: Uint32Array, from = 0, to = words.length): void {
    let at = from * 4;
    const end = to * 4;
    const view = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
    while (at < end) {
      const n = writeSync(this.fd, view, at, end - at);
      at += n;
      this.bytes += n;
    }
  }

  close(): number {
    closeSync(this.fd);
    return this.bytes;
  }
}

/** Writes `count` records of `data` as one run file; returns its size in bytes. */
export function writeRun(path: string, data: Uint32Array, width: number, count = data.length / width): number {
  const w = new RunWriter(path);
  try {
    w.write(data, 0, count * width);
  } finally {
    w.close();
  }
  return w.bytes;
}

/** A part of a run file: records [from, to). */
export interface RunPart {
  readonly path: string;
  readonly from: number;
  readonly to: number;
}

/** Number of records in a run file of `width`-word records. */
export function runLength(path: string, width: number): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size / recordBytes(width);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads records [from, to) of `width` words from the run file open as `fd` into `into`, from its
 * record `at`; a file shorter than that is an error naming it.
 */
export function readRecords(fd: number, path: string, o: { readonly from: number; readonly to: number; readonly width: number; readonly into: Uint32Array; readonly at: number }): void {
  const bytes = Buffer.from(o.into.buffer, o.into.byteOffset + o.at * o.width * 4, (o.to - o.from) * o.width * 4);
  let got = 0;
  while (got < bytes.length) {
    const n = readSync(fd, bytes, got, bytes.length - got, o.from * o.width * 4 + got);
    if (n === 0) throw new Error(`${path}: run ends before record ${o.to}`);
    got += n;
  }
}

/**
 * Streams the records of one run part through a buffer of `bufferRecords` records. The current
 * record is `words[at .. at + width)`; `next()` moves on, `done` says the part is exhausted.
 */
export class RunReader {
  readonly words: Uint32Array;
  at = 0;
  done = false;
  private readonly fd: number;
  /** the part's next record to load */
  private nextRecord: number;
  /** words of `words` holding records */
  private loaded = 0;
  private closed = false;

  constructor(
    readonly part: RunPart,
    readonly width: number,
    bufferRecords: number,
  ) {
    if (!Number.isInteger(part.from) || !Number.isInteger(part.to) || part.from < 0 || part.from > part.to) {
      throw new RangeError(`${part.path}: not a part of a run: records [${part.from}, ${part.to})`);
    }
    const records = Math.max(1, Math.min(bufferRecords, part.to - part.from));
    this.words = new Uint32Array(records * width);
    this.fd = openSync(part.path, 'r');
    this.nextRecord = part.from;
    this.fill();
  }

  private fill(): void {
    const records = Math.min(this.words.length / this.width, this.part.to - this.nextRecord);
    if (records <= 0) {
      this.done = true;
      this.close();
      return;
    }
    readRecords(this.fd, this.part.path, { from: this.nextRecord, to: this.nextRecord + records, width: this.width, into: this.words, at: 0 });
    this.nextRecord += records;
    this.loaded = records * this.width;
    this.at = 0;
  }

  next(): void {
    this.at += this.width;
    if (this.at >= this.loaded) this.fill();
  }

  /** Records buffered from the current one on. */
  bufferedRecords(): number {
    return (this.loaded - this.at) / this.width;
  }

  /** Moves past every buffered record. */
  skipBuffer(): void {
    this.at = this.loaded;
    this.fill();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/**
 * k-way merge of run parts in key order, handed out a chunk at a time: `visit(words, records)`
 * gets `records` records in key order at the start of `words` (valid only during the call).
 * Equal keys come in the order of `parts`, so runs written in document order give each key's
 * records in document order. Callers loop over the chunk themselves: one call a record through
 * a closure shared by every caller of the merge cost about as much as the merge
 * (docs/performance.md). One part is streamed from its reader's buffer without a copy.
 */
export function mergeRunChunks(
  parts: readonly RunPart[],
  width: number,
  keyWords: number,
  visit: (words: Uint32Array, records: number) => void,
  opts: { readonly bufferRecords?: number; readonly stop?: Int32Array } = {},
): void {
  const bufferRecords = opts.bufferRecords ?? 1 << 16;
  const readers = parts.filter((p) => p.to > p.from).map((p) => new RunReader(p, width, bufferRecords));
  try {
    if (readers.length === 1) {
      const r = readers[0] as RunReader;
      while (!r.done) {
        throwIfStopped(opts.stop);
        visit(r.at === 0 ? r.words : r.words.subarray(r.at), r.bufferedRecords());
        r.skipBuffer();
      }
      return;
    }
    mergeHeap(readers, width, keyWords, visit, { bufferRecords, ...(opts.stop ? { stop: opts.stop } : {}) });
  } finally {
    for (const r of readers) r.close();
  }
}

function mergeHeap(
  readers: readonly RunReader[],
  width: number,
  keyWords: number,
  visit: (words: Uint32Array, records: number) => void,
  opts: { readonly bufferRecords: number; readonly stop?: Int32Array },
): void {
  const out = new Uint32Array(Math.max(1, opts.bufferRecords) * width);
  let filled = 0;
  // Each reader's current key, copied into one array: the heap's comparisons read it without
  // going through the readers (a third of the merge's time, measured on fingerprint runs).
  const heads = new Uint32Array(Math.max(1, readers.length * keyWords));
  const load = (x: number): void => {
    const r = readers[x] as RunReader;
    for (let w = 0; w < keyWords; w++) heads[x * keyWords + w] = r.words[r.at + w] as number;
  };
  // A binary heap of reader indexes, ordered by (key, reader index).
  const heap = new Int32Array(Math.max(1, readers.length));
  let n = 0;
  const less = (x: number, y: number): boolean => {
    for (let w = 0; w < keyWords; w++) {
      const p = heads[x * keyWords + w] as number;
      const q = heads[y * keyWords + w] as number;
      if (p !== q) return p < q;
    }
    return x < y;
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && less(heap[r] as number, heap[l] as number) ? r : l;
      if (!less(heap[c] as number, heap[i] as number)) return;
      const t = heap[c] as number;
      heap[c] = heap[i] as number;
      heap[i] = t;
      i = c;
    }
  };
  readers.forEach((r, i) => {
    if (r.done) return;
    load(i);
    heap[n++] = i;
  });
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i);
  const outEnd = out.length;
  while (n > 0) {
    const top = heap[0] as number;
    const r = readers[top] as RunReader;
    const words = r.words;
    const at = r.at;
    for (let x = 0; x < width; x++) out[filled + x] = words[at + x] as number;
    filled += width;
    if (filled === outEnd) {
      throwIfStopped(opts.stop);
      visit(out, filled / width);
      filled = 0;
    }
    r.next();
    if (r.done) heap[0] = heap[--n] as number;
    else load(top);
    if (n > 1) down(0);
  }
  if (filled > 0) visit(out, filled / width);
}
