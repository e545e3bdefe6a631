/**
 * A streaming reader of tar archives (POSIX ustar and pax, GNU tar, old v7), enough to read
 * document collections shipped as `.tar`/`.tar.gz` (CACM): it yields the regular files one
 * at a time, so memory holds one entry, never the archive.
 *
 * Archive errors are `TarError`s carrying the byte offset in the (uncompressed) archive; the
 * caller knows the file name and turns them into a DataError. An archive that ends early is
 * not an error: the generator returns `{ kind: 'truncated' }` after the entries it could read.
 */

/** One regular file of the archive. `offset`: its first header block (a GNU long-name or pax
 * header when it has one) in the uncompressed archive. */
export interface TarEntry {
  readonly path: string;
  readonly size: number;
  readonly offset: number;
  readonly data: Buffer;
  /** larger than the limit: passed over as it streamed, `data` is empty */
  readonly tooLarge?: true;
}

/**
 * An entry larger than this is passed over without being held (a document collection's files
 * are small; a damaged size field would make the reader hold the rest of the archive).
 */
export const MAX_ENTRY_BYTES = 256 * 1024 * 1024;
/** A GNU long name or pax header larger than this is not one. */
const MAX_EXTENDED_HEADER = 1024 * 1024;

/** How the archive ended: at its end-of-archive block, or cut off at `offset`. */
export type TarEnd = { readonly kind: 'complete' } | { readonly kind: 'truncated'; readonly offset: number; readonly problem: string };

export class TarError extends Error {
  override readonly name = 'TarError';
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(`byte ${offset}: ${problem}`);
  }
}

const BLOCK = 512;
const CHECKSUM_AT = 148;
const CHECKSUM_LEN = 8;

/** Sequential reads of exact byte counts over a chunk stream, keeping only the current chunk. */
class ByteQueue {
  private buf: Buffer = Buffer.alloc(0);
  /** Bytes consumed so far: the archive offset of the next byte. */
  offset = 0;

  constructor(private readonly chunks: AsyncIterator<Uint8Array>) {}

  /** Lets the source release its file when reading stops before the end. */
  async close(): Promise<void> {
    await this.chunks.return?.();
  }

  private async pull(): Promise<Buffer | undefined> {
    const r = await this.chunks.next();
    if (r.done === true) return undefined;
    const v = r.value;
    return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }

  /** The next `n` bytes, or fewer when the stream ends first. */
  async take(n: number): Promise<Buffer> {
    if (this.buf.length >= n) {
      const out = this.buf.subarray(0, n);
      this.buf = this.buf.subarray(n);
      this.offset += n;
      return out;
    }
    const parts = [this.buf];
    let have = this.buf.length;
    let last = this.buf;
    while (have < n) {
      const chunk = await this.pull();
      if (!chunk) break;
      parts.push(chunk);
      have += chunk.length;
      last = chunk;
    }
    const got = Math.min(n, have);
    this.buf = last.subarray(last.length - (have - got));
    this.offset += got;
    return Buffer.concat(parts, got);
  }

  /** Discards the next `n` bytes; returns how many there were. */
  async drop(n: number): Promise<number> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0) {
        const chunk = await this.pull();
        if (!chunk) break;
        this.buf = chunk;
      }
      const d = Math.min(left, this.buf.length);
      this.buf = this.buf.subarray(d);
      left -= d;
    }
    this.offset += n - left;
    return n - left;
  }
}

const padding = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

function cString(block: Buffer, from: number, len: number): string {
  const field = block.subarray(from, from + len);
  const nul = field.indexOf(0);
  return field.subarray(0, nul < 0 ? len : nul).toString('utf8');
}

/** An octal number field (NUL/space padded), or GNU base-256 when the high bit is set. */
function numberField(block: Buffer, from: number, len: number): number | undefined {
  const field = block.subarray(from, from + len);
  if ((field[0]! & 0x80) !== 0) {
    let n = field[0]! & 0x7f;
    for (let i = 1; i < len; i++) n = n * 256 + field[i]!;
    return Number.isSafeInteger(n) ? n : undefined;
  }
  const text = field.toString('latin1').replace(/\0.*$/s, '').trim();
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : text === '' ? 0 : undefined;
}

/** The header's checksum: every byte summed with the checksum field read as spaces; old
 * writers summed signed bytes, so either sum is accepted. */
function checksumMatches(block: Buffer): { ok: boolean; stored: number | undefined; computed: number } {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= CHECKSUM_AT && i < CHECKSUM_AT + CHECKSUM_LEN ? 0x20 : block[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  const stored = numberField(block, CHECKSUM_AT, CHECKSUM_LEN);
  return { ok: stored === unsigned || stored === signed, stored, computed: unsigned };
}

/** Regular files: '0', NUL (pre-POSIX) and '7' (contiguous, which POSIX reads as regular). */
const REGULAR = new Set(['0', '\0', '7']);

const isZero = (block: Buffer): boolean => block.every((b) => b === 0);

/** `len key=value\n` records of a pax extended header. */
function paxRecords(data: Buffer, at: number): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < data.length && data[i] !== 0) {
    const space = data.indexOf(0x20, i);
    const len = space < 0 ? NaN : Number(data.subarray(i, space).toString('latin1'));
    if (!Number.isInteger(len) || len <= space - i || i + len > data.length) {
      throw new TarError(at, `malformed pax extended header record at byte ${i} of its data`);
    }
    const record = data.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    i += len;
  }
  return out;
}

/** Overrides for the next entry, from GNU long-name ('L') and pax ('x') headers. */
interface Pending {
  path?: string;
  size?: number;
  start?: number;
}

/**
 * The regular files of a tar stream (typeflag '0', NUL or '7'), in archive order. Directories,
 * links, devices and global pax headers are passed over. Ends at the first zero block (the
 * end-of-archive marker); the return value says whether the archive was complete. A header
 * with a bad checksum or an unreadable size throws a TarError.
 */
export async function* tarEntries(stream: AsyncIterable<Uint8Array>, maxEntryBytes = MAX_ENTRY_BYTES): AsyncGenerator<TarEntry, TarEnd, undefined> {
  const q = new ByteQueue(stream[Symbol.asyncIterator]());
  try {
    return yield* readEntries(q, maxEntryBytes);
  } finally {
    await q.close();
  }
}

async function* readEntries(q: ByteQueue, maxEntryBytes: number): AsyncGenerator<TarEntry, TarEnd, undefined> {
  let pending: Pending = {};
  const truncated = (problem: string): TarEnd => ({ kind: 'truncated', offset: q.offset, problem });
  for (;;) {
    const at = q.offset;
    const header = await q.take(BLOCK);
    if (header.length === 0) {
      return pending.start === undefined
        ? truncated('the archive ends without its end-of-archive block')
        : truncated('the archive ends after an extended header, before its entry');
    }
    if (header.length < BLOCK) return truncated(`the archive ends inside a header block (${header.length} of ${BLOCK} bytes)`);
    if (isZero(header)) {
      // A zero block followed by more headers is not an end but concatenated archives or
      // damage; stopping there would silently drop the rest.
      const next = await q.take(BLOCK);
      if (next.length === BLOCK && !isZero(next)) {
        throw new TarError(at, 'a zero block inside the archive is followed by more headers (concatenated archives?)');
      }
      return { kind: 'complete' };
    }
    const sum = checksumMatches(header);
    if (!sum.ok) {
      const stored = sum.stored === undefined ? 'unreadable' : String(sum.stored);
      throw new TarError(at, `tar header checksum mismatch (stored ${stored}, computed ${sum.computed}): not a tar archive, or a damaged one`);
    }
    const typeflag = String.fromCharCode(header[156]!);
    const headerSize = numberField(header, 124, 12);
    if (headerSize === undefined) throw new TarError(at, 'tar header size field is not a number');
    const regular = REGULAR.has(typeflag);
    const size = regular ? (pending.size ?? headerSize) : headerSize;
    const start = pending.start ?? at;

    if (typeflag === 'L' || typeflag === 'x') {
      if (size > MAX_EXTENDED_HEADER) throw new TarError(at, `extended header of ${size} bytes, more than ${MAX_EXTENDED_HEADER}: a damaged archive`);
      const data = await q.take(size);
      if (data.length < size) return truncated('the archive ends inside an extended header');
      if ((await q.drop(padding(size))) < padding(size)) return truncated('the archive ends inside an extended header');
      if (typeflag === 'L') {
        pending = { ...pending, path: cString(data, 0, data.length), start };
      } else {
        const pax = paxRecords(data, at);
        const paxSize = pax.get('size');
        const parsedSize = paxSize === undefined ? undefined : Number(paxSize);
        if (parsedSize !== undefined && !(Number.isSafeInteger(parsedSize) && parsedSize >= 0)) {
          throw new TarError(at, `pax header size=${paxSize} is not a byte count`);
        }
        pending = {
          ...pending,
          ...(pax.has('path') ? { path: pax.get('path') } : {}),
          ...(parsedSize === undefined ? {} : { size: parsedSize }),
          start,
        };
      }
      continue;
    }

    if (!regular) {
      // Directories and links have no data; other kinds (GNU 'K', pax 'g', devices) are
      // passed over by their size so the next header is found.
      pending = {};
      const skip = size + padding(size);
      if ((await q.drop(skip)) < skip) return truncated('the archive ends inside an entry');
      continue;
    }

    const path = pending.path ?? headerPath(header);
    pending = {};
    if (size > maxEntryBytes) {
      const skip = size + padding(size);
      if ((await q.drop(skip)) < skip) return truncated(`the archive ends inside ${path} (of ${size} bytes)`);
      yield { path, size, offset: start, data: Buffer.alloc(0), tooLarge: true };
      continue;
    }
    const data = await q.take(size);
    if (data.length < size) return truncated(`the archive ends inside ${path} (${data.length} of ${size} bytes)`);
    yield { path, size, offset: start, data };
    if ((await q.drop(padding(size))) < padding(size)) return truncated(`the archive ends in the padding after ${path}`);
  }
}

/** The name field, with the POSIX ustar prefix when the header is ustar (GNU tar uses that
 * space for other fields). */
function headerPath(header: Buffer): string {
  const name = cString(header, 0, 100);
  const posix = header.toString('latin1', 257, 263) === 'ustar\0';
  const prefix = posix ? cString(header, 345, 155) : '';
  return prefix === '' ? name : `${prefix}/${name}`;
}
