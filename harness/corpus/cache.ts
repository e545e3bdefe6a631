/**
 * A content-addressed cache of what readers produce: the documents and the skips of a corpus, in
 * order, so that a second run (or a new variant, or `bench corpus`) over the same collection
 * replays them instead of parsing the collection again.
 *
 * Key: SHA-256 of the reader (format, options, the path as given and as resolved), the input
 * files (sizes and modification times, or SHA-256 of their content with `--hash-inputs`: the
 * fingerprint corpus/fingerprints.ts takes of a run's inputs), the reader code (every source of
 * harness/corpus/, the versions of the packages it decodes with, and Node's, V8's and ICU's
 * versions). Any change to one of these is a different key: an entry is never updated, only
 * written whole, so there is nothing to invalidate; entries no run asks for any more age out.
 *
 * Corpora whose files hold less than 1 MiB are not cached (they parse in milliseconds).
 *
 * Where: `<cache>/corpus/<key>.corpus`, `<cache>` being NDD_BENCH_CACHE_DIR, else the user's cache
 * folder (XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on
 * Windows) + `/ndd-bench`. Size: at most NDD_BENCH_CACHE_MAX_MB (default 10240) MB in all; past
 * it the least recently used entries are removed after a write (an entry larger than the
 * limit is not kept). `bench cache` lists the entries, `bench cache --clear` removes them (or
 * delete the folder); `--no-corpus-cache` or NDD_BENCH_CACHE_DIR=off reads without it.
 *
 * Safety: an entry is written under a temporary name (`<key>.<pid>.<n>.tmp`) and renamed into
 * place once complete, so readers see a whole entry or none, and of two runs writing the same
 * entry the last rename wins with identical content. Every frame of an entry carries its
 * SHA-256 and is checked before its documents are handed on; an entry that fails a check
 * (truncated, corrupt) is removed and the collection is read instead, the documents already
 * handed on being skipped so that nothing is given twice. Temporary files of a process that
 * died are removed by the next write. A cache that cannot be written (read-only, full) only
 * costs the speed-up: the run goes on reading the collection.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { codeDigest } from '../../algorithms/text/code-digest.ts';
import type { FileSetFingerprint } from './fingerprints.ts';
import type { Document, Skip } from './types.ts';
import { clearFolder, listFolder, removeDeadTemporaries, trimToSize } from '../runtime/cache-folder.ts';

/** One thing a reader reported, in order: a document or a skip. */
export type ReaderEvent = { readonly doc: Document } | { readonly skip: Skip };

export interface CorpusCacheOptions {
  /** the folder entries go to (`<cache>/corpus`) */
  readonly dir: string;
  readonly maxBytes: number;
  /** how input files are fingerprinted: sizes and times (default) or content */
  readonly method: 'stat' | 'content';
  /** one-line notices (a corrupt entry removed, a cache that cannot be written) */
  readonly notice: (line: string) => void;
  /** corpora whose files hold fewer bytes are read, not cached (default 1 MiB: they parse in milliseconds) */
  readonly minBytes?: number;
  /** events are written in frames of about this many bytes of text (default 4 MiB; tests make it small) */
  readonly frameBytes?: number;
}

/** Below this, a corpus is read rather than cached: replaying it would save nothing. */
export const MIN_CACHED_BYTES = 1 << 20;

/** What the cache did for one read, for run.json. */
export type CacheOutcome = 'hit' | 'written' | 'not-written' | 'off';

const MAGIC = Buffer.from('NDDCORP1');
const FRAME_HEADER = 1 + 4 + 32;
const FRAME = { header: 1, events: 2, trailer: 3 } as const;
/** Events are written in frames of about this many bytes of text. */
const FRAME_BYTES = 4 << 20;
const DEFAULT_MAX_MB = 10240;
/** The packages whose code decides what a reader yields. */
const READER_PACKAGES = ['postal-mime', 'entities', 'iconv-lite'];

/** The cache folder the environment names; undefined when it turns the cache off. */
export function cacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home: string = homedir()): string | undefined {
  const set = env['NDD_BENCH_CACHE_DIR'];
  if (set !== undefined && set !== '') return ['off', '0', 'false', 'no'].includes(set.toLowerCase()) ? undefined : resolve(set);
  if (platform === 'win32') return join(env['LOCALAPPDATA'] || join(home, 'AppData', 'Local'), 'ndd-bench', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ndd-bench');
  return join(env['XDG_CACHE_HOME'] || join(home, '.cache'), 'ndd-bench');
}

/** The corpus cache as the environment sets it up; undefined when it is off. */
export function corpusCacheFromEnv(env: NodeJS.ProcessEnv, opts: { method?: 'stat' | 'content'; notice?: (line: string) => void } = {}): CorpusCacheOptions | undefined {
  const dir = cacheDir(env);
  if (dir === undefined) return undefined;
  const mb = Number(env['NDD_BENCH_CACHE_MAX_MB'] ?? DEFAULT_MAX_MB);
  return {
    dir: join(dir, 'corpus'),
    maxBytes: (Number.isFinite(mb) && mb >= 0 ? mb : DEFAULT_MAX_MB) * 2 ** 20,
    method: opts.method ?? 'stat',
    notice: opts.notice ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}

/** The reader code: every source of this folder, the decoding packages' versions, the runtime's. */
export function readerCodeDigest(): string {
  const require = createRequire(import.meta.url);
  const versions = READER_PACKAGES.map((pkg) => {
    try {
      return `${pkg}@${(JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version}`;
    } catch {
      // A package that hides its package.json: its version is left out of the key.
      return `${pkg}@unknown`;
    }
  });
  return codeDigest(new URL('./', import.meta.url), versions);
}

export interface CacheKeyParts {
  readonly format: string;
  /** the path as the config gives it (skips name files by it) */
  readonly path: string;
  readonly options: Record<string, unknown>;
  /** the fingerprint of the files the reader reads (fingerprints.ts) */
  readonly inputs: FileSetFingerprint;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function cacheKey(parts: CacheKeyParts): string {
  const what = {
    cache: 1,
    format: parts.format,
    path: parts.path,
    options: canonical(parts.options),
    location: resolve(parts.inputs.path),
    files: parts.inputs.files,
    bytes: parts.inputs.bytes,
    inputs: parts.inputs.digest,
    code: readerCodeDigest(),
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** What an entry says about itself (its first frame), for `bench cache`. */
export interface EntryHeader {
  readonly key: string;
  readonly format: string;
  readonly path: string;
  readonly location: string;
  readonly created: string;
}

export interface EntryInfo extends EntryHeader {
  readonly file: string;
  readonly bytes: number;
  readonly used: Date;
  readonly documents?: number;
}

class CorruptEntry extends Error {}

function frame(type: number, payload: Buffer): Buffer[] {
  const head = Buffer.alloc(FRAME_HEADER);
  head[0] = type;
  head.writeUInt32LE(payload.length, 1);
  createHash('sha256').update(head.subarray(0, 1)).update(payload).digest().copy(head, 5);
  return [head, payload];
}

/** Reads an entry frame by frame, each checked before it is returned. */
class EntryReader {
  private readonly fd: number;
  private pos = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'r');
  }

  private read(n: number): Buffer {
    const buf = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const r = readSync(this.fd, buf, got, n - got, this.pos + got);
      if (r === 0) throw new CorruptEntry(`ends at byte ${this.pos + got}, inside a frame`);
      got += r;
    }
    this.pos += n;
    return buf;
  }

  magic(): void {
    if (!this.read(MAGIC.length).equals(MAGIC)) throw new CorruptEntry('not a corpus cache entry (or of another version)');
  }

  /** The next frame, checked. */
  next(): { type: number; payload: Buffer } {
    const head = this.read(FRAME_HEADER);
    const type = head[0]!;
    const payload = this.read(head.readUInt32LE(1));
    const digest = createHash('sha256').update(head.subarray(0, 1)).update(payload).digest();
    if (!digest.equals(head.subarray(5))) throw new CorruptEntry(`frame at byte ${this.pos - payload.length - FRAME_HEADER} fails its SHA-256 check`);
    return { type, payload };
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The events of a complete entry, frame by frame; throws CorruptEntry where the entry is not whole. */
function* replay(file: string, key: string): Generator<ReaderEvent> {
  const r = new EntryReader(file);
  try {
    r.magic();
    const head = r.next();
    if (head.type !== FRAME.header || (JSON.parse(head.payload.toString('utf8')) as EntryHeader).key !== key) throw new CorruptEntry('its header is not this entry’s');
    let events = 0;
    for (;;) {
      const f = r.next();
      if (f.type === FRAME.trailer) {
        const end = JSON.parse(f.payload.toString('utf8')) as { events: number };
        if (end.events !== events) throw new CorruptEntry(`it holds ${events} events where its trailer says ${end.events}`);
        return;
      }
      if (f.type !== FRAME.events) throw new CorruptEntry(`unknown frame type ${f.type}`);
      const batch = deserialize(f.payload) as ReaderEvent[];
      events += batch.length;
      yield* batch;
    }
  } finally {
    r.close();
  }
}

let tmpCounter = 0;

/** Writes one entry; every failure turns it into a no-op (and one notice). */
class EntryWriter {
  private fd: number | undefined;
  private readonly tmp: string;
  private pending: ReaderEvent[] = [];
  private pendingBytes = 0;
  private events = 0;
  private documents = 0;
  private written = 0;
  failed = false;

  constructor(
    private readonly cache: CorpusCacheOptions,
    private readonly final: string,
    header: EntryHeader,
  ) {
    this.tmp = `${final.slice(0, -'.corpus'.length)}.${process.pid}.${tmpCounter++}.tmp`;
    this.attempt(() => {
      mkdirSync(cache.dir, { recursive: true });
      removeDeadTemporaries(cache.dir);
      this.fd = openSync(this.tmp, 'wx');
      this.write([MAGIC, ...frame(FRAME.header, Buffer.from(JSON.stringify(header)))]);
    });
  }

  private attempt(f: () => void): void {
    if (this.failed) return;
    try {
      f();
    } catch (e) {
      this.fail(`corpus cache: not written (${(e as Error).message}); the collection is read as usual`);
    }
  }

  private fail(why: string): void {
    this.failed = true;
    this.cache.notice(why);
    this.discard();
  }

  private write(parts: Buffer[]): void {
    for (const p of parts) {
      let off = 0;
      while (off < p.length) off += writeSync(this.fd!, p, off);
      this.written += p.length;
    }
    if (this.written > this.cache.maxBytes) {
      this.fail(`corpus cache: not written (the corpus is larger than the cache's ${mb(this.cache.maxBytes)}; NDD_BENCH_CACHE_MAX_MB raises it)`);
    }
  }

  add(event: ReaderEvent): void {
    if (this.failed) return;
    this.pending.push(event);
    this.events++;
    if ('doc' in event) {
      this.documents++;
      this.pendingBytes += event.doc.text.length + event.doc.id.length;
    } else this.pendingBytes += 200;
    if (this.pendingBytes >= (this.cache.frameBytes ?? FRAME_BYTES)) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const payload = serialize(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.attempt(() => this.write(frame(FRAME.events, payload)));
  }

  /** Completes the entry and renames it into place; then trims the cache to its size. */
  commit(): boolean {
    this.flush();
    this.attempt(() => {
      this.write(frame(FRAME.trailer, Buffer.from(JSON.stringify({ events: this.events, documents: this.documents }))));
      closeSync(this.fd!);
      this.fd = undefined;
      // Not kernels/io's atomic write: the entry is streamed frame by frame while the corpus is
      // read, under a name the cache's trimming recognizes (`<key>.<pid>.<n>.tmp`).
      renameSync(this.tmp, this.final);
      trim(this.cache, this.final);
    });
    return !this.failed;
  }

  discard(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    try {
      rmSync(this.tmp, { force: true });
    } catch {
      // never created (the folder could not be)
    }
  }
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** The complete entries of a cache folder, least recently used first. */
export function listEntries(dir: string): EntryInfo[] {
  return listFolder(dir, (name) => /^[0-9a-f]{64}\.corpus$/.test(name), (file, st) => {
    const r = new EntryReader(file);
    try {
      r.magic();
      const head = JSON.parse(r.next().payload.toString('utf8')) as EntryHeader;
      return { ...head, file, bytes: st.size, used: st.mtime };
    } finally {
      r.close();
    }
  });
}

/** Removes least recently used entries until the folder holds at most `maxBytes`, `keep` last of all. */
function trim(cache: CorpusCacheOptions, keep: string): void {
  // The entry just written fits the limit (the writer gives up past it): it stays.
  trimToSize(listEntries(cache.dir), cache.maxBytes, keep);
}

/** Removes every entry (and temporary file) of a cache folder; returns how many bytes were freed. */
export function clearCache(dir: string): { entries: number; bytes: number } {
  return clearFolder(dir, (name) => /^[0-9a-f]{64}\.corpus$/.test(name));
}

/**
 * The reader's events for `key`: replayed from the cache when a whole entry is there, else
 * taken from `source` (and written to the cache when the source is read to its end). `outcome`
 * is called once with what happened, when the events end or the read stops.
 */
export async function* cachedEvents(
  cache: CorpusCacheOptions,
  key: string,
  header: Omit<EntryHeader, 'key' | 'created'>,
  source: () => AsyncIterable<ReaderEvent>,
  outcome: (o: CacheOutcome) => void,
): AsyncGenerator<ReaderEvent> {
  const file = join(cache.dir, `${key}.corpus`);
  let replayed = 0;
  let exists = false;
  try {
    statSync(file);
    exists = true;
  } catch {
    // a miss
  }
  if (exists) {
    let whole = false;
    try {
      for (const event of replay(file, key)) {
        replayed++;
        yield event;
      }
      whole = true;
      try {
        const now = new Date();
        utimesSync(file, now, now); // least recently used goes first
      } catch {
        // removed meanwhile: it was read whole all the same
      }
    } catch (e) {
      const gone = (e as NodeJS.ErrnoException).code === 'ENOENT';
      if (!(e instanceof CorruptEntry) && !gone) throw e;
      // Removed between the look and the read, before anything was read from it: a plain miss.
      if (!gone || replayed > 0) {
        const why = e instanceof CorruptEntry ? e.message : 'was removed while being read';
        cache.notice(`corpus cache: entry ${file} ${why}: removed; reading the collection${replayed > 0 ? ` (the ${replayed} records already read from the cache are not read twice)` : ''}`);
        rmSync(file, { force: true });
      }
    } finally {
      // Also when the read stops early (a limit, an interrupt): the documents came from the cache.
      if (whole || replayed > 0) outcome('hit');
    }
    if (whole) return;
  }
  const writer = new EntryWriter(cache, file, { key, ...header, created: new Date().toISOString() });
  let complete = false;
  let n = 0;
  try {
    for await (const event of source()) {
      writer.add(event);
      if (n++ >= replayed) yield event;
    }
    complete = true;
  } finally {
    if (complete && writer.commit()) outcome('written');
    else {
      writer.discard();
      outcome('not-written');
    }
  }
}
