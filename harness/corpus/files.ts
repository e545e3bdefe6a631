/**
 * The byte layer under every collection reader: a corpus path is a plain file, a gzip file
 * (one or many concatenated members, as GOV2 and ClueWeb ship them) or a directory tree of
 * such files. Files are streamed in large chunks, so memory does not grow with the
 * collection; format readers frame records on top of these chunks.
 */
import { createReadStream } from 'node:fs';
import { statSync } from 'node:fs';
import { open, readFile, readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { DataError } from '../errors.ts';
import type { ReadContext } from './types.ts';

/** A run of a file's (uncompressed) bytes; `offset` is the position of `bytes[0]` in the file. */
export interface Chunk {
  readonly file: string;
  readonly offset: number;
  readonly bytes: Buffer;
}

/**
 * Large chunks keep per-chunk overhead (and the copying record framers do across chunk
 * boundaries) small; 1 MiB is still nothing next to a collection.
 */
const CHUNK_BYTES = 1 << 20;

/**
 * The files of a corpus path: the path itself when it is a file, else every file under it
 * (recursively; names starting with `.` are not data and are left out), sorted by path in
 * byte order so that a directory is read in the same order on every machine.
 */
export async function listInputFiles(path: string): Promise<string[]> {
  return (await walkInputFiles(path)).map((f) => f.path);
}

/** A file of a corpus path, and its path relative to that path ('' when the path is the file). */
export interface InputFile {
  readonly path: string;
  readonly rel: string;
}

/**
 * `listInputFiles` with each file's relative path: what the readers read is exactly what a run's
 * inputs fingerprint covers (corpus/fingerprints.ts), symbolic links followed alike.
 */
export async function walkInputFiles(path: string): Promise<InputFile[]> {
  const info = await stat(path).catch(() => {
    throw new DataError(`${path}: no such file or directory`);
  });
  if (!info.isDirectory()) return [{ path, rel: '' }];
  const found: InputFile[] = [];
  await collect(join(path), '', found);
  if (found.length === 0) throw new DataError(`${path}: directory holds no files`);
  // UTF-16 order is UTF-8's byte order but for characters past U+FFFF (surrogate pairs).
  if (!found.some((f) => SURROGATE.test(f.rel))) return found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return found
    .map((f) => ({ f, k: Buffer.from(f.rel) }))
    .sort((a, b) => Buffer.compare(a.k, b.k))
    .map((e) => e.f);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Paths built as the walk goes, from the normalized root: path.relative costs ~10 µs a file and
 * path.join's normalizing a few (a collection can hold hundreds of thousands of files).
 */
async function collect(dir: string, prefix: string, out: InputFile[]): Promise<void> {
  const base = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = `${base}${entry.name}`;
    const rel = prefix === '' ? entry.name : `${prefix}${sep}${entry.name}`;
    const isDir = entry.isSymbolicLink() ? (await stat(full)).isDirectory() : entry.isDirectory();
    if (isDir) await collect(full, rel, out);
    else out.push({ path: full, rel });
  }
}

/** Gzip'd collections (GOV2, ClueWeb) inflate about four times. */
const GZIP_RATIO = 4;

/** About how many uncompressed bytes `files` hold, from their sizes and names: enough to decide whether to read on several threads. */
export function estimatedBytes(files: readonly string[]): number {
  let total = 0;
  for (const f of files) {
    try {
      total += statSync(f).size * (/\.(gz|tgz)$/i.test(f) ? GZIP_RATIO : 1);
    } catch {
      // A file that cannot be read is reported when it is read.
    }
  }
  return total;
}

/** Sniffs the gzip magic rather than trusting the file name (`.gz` files are sometimes plain). */
async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * Streams one file's uncompressed bytes. An empty file is a counted skip (`empty-file`). A
 * gzip stream that breaks off keeps what was read and counts a skip (`truncated-gzip` or
 * `corrupt-gzip`) at the uncompressed offset where it stopped; a file from which not one
 * byte could be read is a DataError, because continuing would silently lose the file.
 */
export async function* readFileChunks(file: string, ctx: ReadContext): AsyncGenerator<Chunk> {
  const gz = await isGzip(file).catch((e: unknown) => {
    throw new DataError(`${file}: cannot read: ${(e as Error).message}`);
  });
  const source = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const stream = gz ? source.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : source;
  if (gz) source.on('error', (e) => stream.destroy(e));
  let offset = 0;
  try {
    for await (const bytes of stream as AsyncIterable<Buffer>) {
      if (bytes.length === 0) continue;
      yield { file, offset, bytes };
      offset += bytes.length;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!gz || (code !== 'Z_BUF_ERROR' && code !== 'Z_DATA_ERROR')) {
      throw new DataError(`${file}: cannot read: ${(e as Error).message}`, { cause: e });
    }
    const reason = code === 'Z_BUF_ERROR' ? 'truncated-gzip' : 'corrupt-gzip';
    if (offset === 0) {
      throw new DataError(`${file}: byte 0: ${reason}: nothing could be decompressed (${(e as Error).message})`);
    }
    ctx.skip({
      file,
      offset,
      reason,
      kind: 'skipped',
      detail: `gzip stream ends early (${(e as Error).message}); the rest of the file is lost, records before it are kept`,
    });
    return;
  } finally {
    source.destroy();
    stream.destroy();
  }
  if (offset === 0) {
    ctx.skip({ file, offset: 0, reason: 'empty-file', kind: 'skipped', detail: 'the file holds no bytes' });
  }
}

/**
 * A small text file read whole (qrels, runs: megabytes, not collections), gunzipped when it
 * is gzip; a missing or unreadable file is a DataError.
 */
export async function readTextFile(path: string): Promise<string> {
  const bytes = await readFile(path).catch((e: unknown) => {
    throw new DataError(`${path}: cannot read: ${(e as Error).message}`);
  });
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (e) {
    throw new DataError(`${path}: cannot gunzip: ${(e as Error).message}`);
  }
}
