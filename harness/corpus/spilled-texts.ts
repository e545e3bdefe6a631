/**
 * The documents' texts in a file instead of the process' memory, for a collection whose texts
 * would take too much of the run's budget (five million web pages are 12 GB of strings). The
 * file is in the run's work folder, so it goes with the folder however the run ends.
 *
 * Each text is stored as UTF-8 (one byte a character when it is ASCII), or as UTF-16LE when it
 * holds a lone surrogate (a JSON reader can yield one), which UTF-8 cannot carry: every string
 * reads back exactly as it was read. A text is found by its byte offset and read back through a
 * window of the file: a pass in index order (a batch for a thread, the words of every document)
 * reads the file once, 8 MiB at a time; a read out of order takes 64 KiB.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { lengthOf, type DocumentTexts } from '../../contract/index.ts';

const BUFFER_BYTES = 8 << 20;
/** what a read out of order takes beyond its text: an explanation's two documents need no more */
const RANDOM_READ_BYTES = 64 << 10;

/** How a text is stored, by `SpilledLayout.encoding` */
const ENCODINGS = ['utf8', 'utf16le'] as const;

/** Appends texts to `file` (created; it must not exist), then `finish` gives them back to read. */
export class SpilledTextsWriter {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private flushed = 0;
  private n = 0;
  private starts = new Float64Array(1024);
  private units = new Uint32Array(1024);
  private encoding = new Uint8Array(1024);
  /** UTF-8 bytes of the texts written, which a run reports */
  utf8Bytes = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'wx');
  }

  add(text: string): void {
    if (this.n + 1 >= this.starts.length) this.grow();
    const utf8 = Buffer.byteLength(text, 'utf8');
    // UTF-8 would write a lone surrogate as U+FFFD; a text that is all ASCII has none.
    const e = utf8 === text.length || text.isWellFormed() ? 0 : 1;
    const bytes = e === 0 ? utf8 : 2 * text.length;
    this.utf8Bytes += utf8;
    this.starts[this.n] = this.flushed + this.used;
    this.units[this.n] = text.length;
    this.encoding[this.n] = e;
    this.n++;
    if (this.used + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) {
      this.writeAll(Buffer.from(text, ENCODINGS[e]));
      return;
    }
    this.used += this.buffer.write(text, this.used, ENCODINGS[e]);
  }

  /** The texts written, to read; the writer is closed. */
  finish(): SpilledTexts {
    this.flush();
    closeSync(this.fd);
    this.starts[this.n] = this.flushed;
    return new SpilledTexts({ file: this.file, starts: this.starts.slice(0, this.n + 1), units: this.units.slice(0, this.n), encoding: this.encoding.slice(0, this.n), utf8Bytes: this.utf8Bytes });
  }

  /** Closes the file without handing it on (a read that stopped); the work folder removes it. */
  discard(): void {
    closeSync(this.fd);
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const starts = new Float64Array(size);
    starts.set(this.starts);
    const units = new Uint32Array(size);
    units.set(this.units);
    const encoding = new Uint8Array(size);
    encoding.set(this.encoding);
    this.starts = starts;
    this.units = units;
    this.encoding = encoding;
  }

  private flush(): void {
    if (this.used === 0) return;
    this.writeAll(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private writeAll(bytes: Buffer): void {
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at, this.flushed + at);
    } catch (e) {
      // A write by descriptor names no file: named, a full disk is the one-line error it is (errors.ts).
      if (e instanceof Error && (e as NodeJS.ErrnoException).path === undefined) (e as NodeJS.ErrnoException).path = this.file;
      throw e;
    }
    this.flushed += bytes.length;
  }
}

interface SpilledLayout {
  readonly file: string;
  /** byte offset of each text, and the file's length last */
  readonly starts: Float64Array;
  /** each text's UTF-16 code units */
  readonly units: Uint32Array;
  /** each text's index in ENCODINGS */
  readonly encoding: Uint8Array;
  readonly utf8Bytes: number;
}

/**
 * What every `DocumentTexts` that is not an array shares: the index conventions of `at` and
 * `slice` (negative counts from the end, out of range is undefined or clamped) and iteration in
 * order, over `textOf`, which reads a text whose index is in range.
 */
abstract class IndexedTexts implements DocumentTexts {
  abstract readonly length: number;
  abstract readonly lengthAt: (index: number) => number;
  protected abstract textOf(index: number): string;

  at(index: number): string | undefined {
    const i = index < 0 ? index + this.length : index;
    return Number.isInteger(i) && i >= 0 && i < this.length ? this.textOf(i) : undefined;
  }

  slice(start = 0, end = this.length): string[] {
    const out: string[] = [];
    for (let i = clampIndex(start, this.length); i < clampIndex(end, this.length); i++) out.push(this.textOf(i));
    return out;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.length; i++) yield this.textOf(i);
  }
}

/** `Array.prototype.slice`'s reading of an index: negative counts from the end, clamped. */
function clampIndex(i: number, length: number): number {
  const t = Math.trunc(i) || 0;
  return t < 0 ? Math.max(0, length + t) : Math.min(t, length);
}

/** Texts read back from a file `SpilledTextsWriter` wrote. */
export class SpilledTexts extends IndexedTexts {
  readonly length: number;
  private buffer = Buffer.alloc(0);
  private window = Buffer.alloc(0);
  /** the file's bytes `windowStart..windowStart + window.length` */
  private windowStart = 0;
  /** the index read last: the next one in order reads a whole window ahead */
  private last = -2;

  constructor(private readonly layout: SpilledLayout) {
    super();
    this.length = layout.units.length;
  }

  readonly lengthAt = (index: number): number => this.layout.units[index] as number;

  /** the texts' UTF-8 bytes, counted as they were written */
  get utf8Bytes(): number {
    return this.layout.utf8Bytes;
  }

  protected textOf(i: number): string {
    const start = this.layout.starts[i] as number;
    const end = this.layout.starts[i + 1] as number;
    if (start < this.windowStart || end > this.windowStart + this.window.length) this.load(start, end, i === this.last + 1 ? BUFFER_BYTES : RANDOM_READ_BYTES);
    this.last = i;
    return this.window.toString(ENCODINGS[this.layout.encoding[i] as 0 | 1], start - this.windowStart, end - this.windowStart);
  }

  /** Reads the window that holds bytes `start..end`, at least `bytes` of it when the file has them. */
  private load(start: number, end: number, bytes: number): void {
    const fileEnd = this.layout.starts[this.length] as number;
    const size = Math.min(Math.max(end - start, bytes), fileEnd - start);
    if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(Math.max(size, BUFFER_BYTES));
    const fd = openSync(this.layout.file, 'r');
    try {
      let got = 0;
      while (got < size) {
        const n = readSync(fd, this.buffer, got, size - got, start + got);
        if (n === 0) throw new Error(`${this.layout.file}: the texts' file ends at byte ${start + got}, before byte ${start + size}`);
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    this.window = this.buffer.subarray(0, size);
    this.windowStart = start;
  }
}

/**
 * The texts `indexes` of `texts`, in that order (the documents a step keeps): a new array when
 * the texts are in memory, a view of the file when they are not, so that none is read here.
 */
export function pickTexts(texts: DocumentTexts, indexes: readonly number[]): DocumentTexts {
  if (Array.isArray(texts)) return indexes.map((i) => texts[i] as string);
  return new PickedTexts(texts, Uint32Array.from(indexes));
}

class PickedTexts extends IndexedTexts {
  readonly length: number;

  constructor(
    private readonly base: DocumentTexts,
    private readonly indexes: Uint32Array,
  ) {
    super();
    this.length = indexes.length;
  }

  readonly lengthAt = (index: number): number => lengthOf(this.base, this.indexes[index] as number);

  protected textOf(i: number): string {
    return this.base.at(this.indexes[i] as number) as string;
  }
}

/** The texts' UTF-8 bytes: counted when they were spilled, else now. */
export function utf8Bytes(texts: DocumentTexts): number {
  if (texts instanceof SpilledTexts) return texts.utf8Bytes;
  let n = 0;
  for (const t of texts) n += Buffer.byteLength(t, 'utf8');
  return n;
}
