/**
 * Files written and read in bounded pieces. One `write` or `read` call of Node takes at most
 * 2^31 − 1 bytes (a larger one fails with ERR_OUT_OF_RANGE: the crash of a checkpoint of
 * 3.3 GB of pairs), and `readFileSync` refuses files over 2 GiB; here no call is given more
 * than `chunkBytes`, and arrays are written from and read into their own memory, never joined
 * into one buffer first.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/** The default bound on one call: 256 MiB, far under Node's 2 GiB. */
export const PIECE_BYTES = 1 << 28;

export interface PieceOptions {
  /** the most bytes one write or read call is given (tests make it tiny) */
  readonly chunkBytes?: number;
}

/** Writes `parts` in order to `file` (created or truncated), a piece of at most `chunkBytes` at a time. */
export function writeFileInPieces(file: string, parts: readonly ArrayBufferView[], o: PieceOptions & { readonly flag?: string } = {}): void {
  const chunk = chunkOf(o);
  const fd = openSync(file, o.flag ?? 'w');
  try {
    for (const part of parts) {
      const bytes = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
      let at = 0;
      // A write may take fewer bytes than it is given (POSIX): the rest follows.
      while (at < bytes.length) at += writeSync(fd, bytes, at, Math.min(chunk, bytes.length - at));
    }
  } finally {
    closeSync(fd);
  }
}

/** Fills `into` from `fd` at `position`, a piece at a time; throws when the file ends first. */
export function readInto(fd: number, into: ArrayBufferView, position: number, o: PieceOptions = {}): void {
  const chunk = chunkOf(o);
  const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
  let at = 0;
  while (at < bytes.length) {
    const n = readSync(fd, bytes, at, Math.min(chunk, bytes.length - at), position + at);
    if (n === 0) throw new Error(`file ends ${bytes.length - at} bytes early (read at ${position + at})`);
    at += n;
  }
}

/**
 * A file's bytes, whole or as pieces in order: a file made in pieces (a large pairs file) is
 * never joined into one Buffer, which Node caps (buffer.constants.MAX_LENGTH).
 */
export type FileBytes = Uint8Array | readonly Uint8Array[];

/** The pieces of `bytes`, in order. */
export function piecesOf(bytes: FileBytes): readonly Uint8Array[] {
  return ArrayBuffer.isView(bytes) ? [bytes] : bytes;
}

/** How many bytes `bytes` holds. */
export function byteLengthOf(bytes: FileBytes): number {
  let n = 0;
  for (const p of piecesOf(bytes)) n += p.byteLength;
  return n;
}

/** The whole file as Buffers of at most `chunkBytes` each, in order. */
export function readFilePieces(file: string, o: PieceOptions = {}): Buffer[] {
  const fd = openSync(file, 'r');
  try {
    return readRangePieces(fd, { at: 0, bytes: fstatSync(fd).size }, o);
  } finally {
    closeSync(fd);
  }
}

/** `bytes` bytes of `fd` from `at`, as Buffers of at most `chunkBytes` each, in order; throws when the file ends first. */
export function readRangePieces(fd: number, range: { readonly at: number; readonly bytes: number }, o: PieceOptions = {}): Buffer[] {
  const chunk = chunkOf(o);
  const out: Buffer[] = [];
  for (let done = 0; done < range.bytes; done += chunk) {
    const piece = Buffer.allocUnsafe(Math.min(chunk, range.bytes - done));
    readInto(fd, piece, range.at + done, o);
    out.push(piece);
  }
  return out;
}

/** The whole file as one Buffer, read a piece at a time (readFileSync refuses files over 2 GiB). */
export function readFileInPieces(file: string, o: PieceOptions = {}): Buffer {
  const fd = openSync(file, 'r');
  try {
    const out = Buffer.allocUnsafe(fstatSync(fd).size);
    readInto(fd, out, 0, o);
    return out;
  } finally {
    closeSync(fd);
  }
}

function chunkOf(o: PieceOptions): number {
  const c = o.chunkBytes ?? PIECE_BYTES;
  if (!(Number.isSafeInteger(c) && c > 0)) throw new Error(`chunkBytes must be a positive integer, got ${c}`);
  return c;
}

/** Calls `visit` with the file's bytes in order, a piece of at most `chunkBytes` (default 1 MiB) at a time, in one reused buffer. */
export function forEachPiece(file: string, visit: (piece: Uint8Array) => void, o: PieceOptions = {}): void {
  const cap = Math.min(chunkOf({ chunkBytes: o.chunkBytes ?? 1 << 20 }), 1 << 20);
  const fd = openSync(file, 'r');
  try {
    // No larger than the file (at least one byte, to read its end): a run hashes dozens of small
    // files, and a mebibyte zeroed for each was most of the time (docs/performance.md).
    const buf = new Uint8Array(Math.max(1, Math.min(cap, fstatSync(fd).size)));
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) visit(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}
