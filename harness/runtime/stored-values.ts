/**
 * Values kernels keep across runs (`KernelContext.stored`): the fingerprint features of a corpus,
 * which a second run over the same documents replays instead of computing (most of a ground
 * truth's time once the corpus itself is replayed from the corpus cache).
 *
 * Where: `<cache>/stored/<key>.values`, beside the corpus cache's `corpus/` folder, under the same
 * switches (NDD_BENCH_CACHE_DIR=off, `--no-corpus-cache`). Size: at most NDD_BENCH_CACHE_MAX_MB
 * for these values (as much again as the corpora may take); past it the least recently used
 * go after a write. Documents whose texts hold less than 1 MiB are not kept (they compute in
 * milliseconds).
 *
 * Key: SHA-256 of the documents' texts, in order, and of the codec's key, which names the
 * value's parameters and carries a digest of the code that computes it (algorithms/text/
 * code-digest.ts). Any change to either is another key: an entry is written whole, never
 * updated, so there is nothing to invalidate.
 *
 * Entry: a magic, the header's length, a JSON header (the key, what the value is, its meta,
 * what computing it cost (shared-costs.ts: a replayed value still charges it to a variant's
 * standalone cost), each array's length and SHA-256), then the arrays' words in this machine's byte order. Values
 * a run computes are written when its variants are done (`flush`; an interrupted run writes
 * none), under a temporary name (`<key>.<pid>.<n>.tmp`, removed by a later write when that
 * process is gone) renamed into place. Every array is checked against its SHA-256 when read; an
 * entry that fails (truncated, corrupt, unreadable) is removed and the value computed. A store
 * that cannot be written only costs the speed-up.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, rmSync, utimesSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from '../../kernels/io/atomic-write.ts';
import { dirname, join } from 'node:path';
import { endianness } from 'node:os';
import { totalLength, type DocumentSet, type StoreCodec, type StoredForm } from '../../contract/index.ts';
import { clearFolder, listFolder, removeDeadTemporaries, trimToSize } from './cache-folder.ts';
import type { SharedCost } from './shared-costs.ts';

export interface StoreOptions {
  readonly dir: string;
  readonly maxBytes: number;
  /** one-line notices (a corrupt entry removed, a store that cannot be written) */
  readonly notice: (line: string) => void;
  /** documents whose texts hold fewer characters are not kept (default 1 MiB) */
  readonly minChars?: number;
}

/** What the store takes of a corpus cache's options (corpus/cache.ts CorpusCacheOptions). */
export interface CacheFolderOptions {
  readonly dir: string;
  readonly maxBytes: number;
  readonly notice: (line: string) => void;
  readonly minBytes?: number;
}

/** The store of a corpus cache: beside its folder, with its limit and notices. */
export function storeBesideCorpusCache(cache: CacheFolderOptions): StoreOptions {
  return { dir: join(dirname(cache.dir), 'stored'), maxBytes: cache.maxBytes, notice: cache.notice, ...(cache.minBytes !== undefined ? { minChars: cache.minBytes } : {}) };
}

const MAGIC = Buffer.from('NDDSTOR1');
const MIN_CHARS = 1 << 20;
const ENTRY = /^[0-9a-f]{64}\.values$/;

interface Header {
  readonly key: string;
  readonly describe: string;
  readonly documents: number;
  readonly created: string;
  readonly meta: StoredForm['meta'];
  /** what computing the value cost; absent in entries of older versions */
  readonly cost?: SharedCost;
  readonly lengths: readonly number[];
  readonly sha256: readonly string[];
}

export interface StoredInfo {
  readonly file: string;
  readonly describe: string;
  readonly documents: number;
  readonly created: string;
  readonly bytes: number;
  readonly used: Date;
}

class CorruptEntry extends Error {}

const arrayBytes = (a: Uint32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Pieces of at most 1 GiB: hashing and file reads take no more than 2 GiB at once. */
const CHUNK = 1 << 30;
function chunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, Math.min(bytes.length, at + CHUNK)));
  return out.length > 0 ? out : [bytes];
}

function sha256(a: Uint32Array): string {
  const h = createHash('sha256');
  for (const c of chunks(arrayBytes(a))) h.update(c);
  return h.digest('hex');
}

const digests = new WeakMap<DocumentSet, string>();
const sizes = new WeakMap<DocumentSet, number>();

/** The characters of the documents' texts, counted once per document set (every value asked of the store asks). */
function documentChars(docs: DocumentSet): number {
  let chars = sizes.get(docs);
  if (chars === undefined) {
    chars = totalLength(docs.texts);
    sizes.set(docs, chars);
  }
  return chars;
}

/**
 * SHA-256 of the texts in order, each with its length. A well-formed text goes in as UTF-8 (the
 * cheaper encoding), any other as UTF-16 under another tag: UTF-8 turns every lone surrogate into
 * the same replacement character, so two such texts could not be told apart.
 */
export function documentsDigest(docs: DocumentSet): string {
  const known = digests.get(docs);
  if (known) return known;
  const h = createHash('sha256');
  const head = Buffer.alloc(5);
  head.writeUInt32LE(docs.texts.length, 1);
  h.update(head);
  for (const text of docs.texts) {
    const whole = text.isWellFormed();
    head[0] = whole ? 1 : 2;
    head.writeUInt32LE(text.length, 1);
    h.update(head).update(text, whole ? 'utf8' : 'utf16le');
  }
  const digest = h.digest('hex');
  digests.set(docs, digest);
  return digest;
}

let tmpCounter = 0;

/** A value computed in this process, to be written when the run flushes the store. */
interface PendingWrite {
  readonly file: string;
  readonly key: string;
  readonly describe: string;
  readonly documents: number;
  readonly form: () => StoredForm;
  /** what computing it cost, known once the computation is over */
  readonly cost?: () => SharedCost | 'unknown' | undefined;
}

/** A value as the store gives it: replayed or computed, and what computing it cost when it was replayed with one. */
export interface Replayed<T> {
  readonly value: T;
  readonly replayed: boolean;
  readonly cost?: SharedCost;
}

type Known = Replayed<unknown>;

export class ValueStore {
  /** values this process computed or replayed, by key, with whether they were replayed */
  private readonly known = new Map<string, Known>();
  private readonly pending = new Map<string, PendingWrite>();

  constructor(private readonly opts: StoreOptions) {}

  /**
   * The value for these documents: one this process already has (replayed as it was then), else
   * replayed from a whole entry, else computed. A computed value is written by `flush`, after the
   * variants: hashing and writing it inside a variant would count in that variant's time.
   */
  async get<T>(docs: DocumentSet, codec: StoreCodec<T>, compute: () => Promise<T>, o: { readonly cost?: () => SharedCost | 'unknown' | undefined } = {}): Promise<Replayed<T>> {
    const at = this.entryFor(docs, codec);
    if (!at) return { value: await compute(), replayed: false };
    const seen = this.known.get(at.key);
    if (seen) return seen as Replayed<T>;
    const entry = this.replay(at.file, at.key);
    if (entry) return this.remember(at.key, { value: codec.decode(entry.form), replayed: true, ...(entry.cost ? { cost: entry.cost } : {}) });
    const value = await compute();
    this.pending.set(at.key, { ...at, describe: codec.describe, documents: docs.texts.length, form: () => codec.encode(value), ...(o.cost ? { cost: o.cost } : {}) });
    return this.remember(at.key, { value, replayed: false });
  }

  /** The value for these documents when this process has it or a whole entry is there; undefined otherwise (nothing computed). */
  peek<T>(docs: DocumentSet, codec: StoreCodec<T>): { readonly value: T; readonly cost?: SharedCost } | undefined {
    const at = this.entryFor(docs, codec);
    if (!at) return undefined;
    const seen = this.known.get(at.key);
    if (seen) return seen as Replayed<T>;
    const entry = this.replay(at.file, at.key);
    return entry ? this.remember(at.key, { value: codec.decode(entry.form), replayed: true, ...(entry.cost ? { cost: entry.cost } : {}) }) : undefined;
  }

  private remember<T>(key: string, known: Replayed<T>): Replayed<T> {
    this.known.set(key, known);
    return known;
  }

  /** Where the value for these documents goes; undefined for documents too small to keep values of. */
  private entryFor<T>(docs: DocumentSet, codec: StoreCodec<T>): { key: string; file: string } | undefined {
    if (documentChars(docs) < (this.opts.minChars ?? MIN_CHARS)) return undefined;
    const key = createHash('sha256').update(`${documentsDigest(docs)}\0${codec.key}\0${endianness()}`).digest('hex');
    return { key, file: join(this.opts.dir, `${key}.values`) };
  }

  /** Writes the values computed since the last flush (a run flushes once its variants are done). */
  async flush(): Promise<void> {
    const writes = [...this.pending.values()];
    this.pending.clear();
    for (const w of writes) await this.write(w);
  }

  /** Forgets the values not yet written (an interrupted run stops without writing them). */
  discard(): void {
    this.pending.clear();
  }

  private replay(file: string, key: string): { readonly form: StoredForm; readonly cost?: SharedCost } | undefined {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return undefined; // a miss
    }
    try {
      const form = readEntry(fd, key);
      try {
        const now = new Date();
        utimesSync(file, now, now); // least recently used goes first
      } catch {
        // removed meanwhile: it was read whole all the same
      }
      return form;
    } catch (e) {
      // Whatever went wrong (a damaged entry, a disk error), the value can still be computed.
      const why = e instanceof CorruptEntry ? e.message : `cannot be read (${(e as Error).message})`;
      this.opts.notice(`stored values: entry ${file} ${why}: removed; the value is computed`);
      try {
        rmSync(file, { force: true });
      } catch {
        // not removable (a folder in its place): the next run will say so again
      }
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  private async write(w: PendingWrite): Promise<void> {
    const tmp = `${w.file.slice(0, -'.values'.length)}.${process.pid}.${tmpCounter++}.tmp`;
    try {
      const form = w.form();
      const bytes = form.arrays.reduce((s, a) => s + a.byteLength, 0);
      if (bytes > this.opts.maxBytes) {
        this.opts.notice(`stored values: ${w.describe} not kept (${mb(bytes)}, over the limit of ${mb(this.opts.maxBytes)}; NDD_BENCH_CACHE_MAX_MB raises it)`);
        return;
      }
      const cost = w.cost?.();
      const header: Header = {
        key: w.key,
        describe: w.describe,
        documents: w.documents,
        created: new Date().toISOString(),
        meta: form.meta,
        ...(cost !== undefined && cost !== 'unknown' ? { cost } : {}),
        lengths: form.arrays.map((a) => a.length),
        sha256: form.arrays.map(sha256),
      };
      await mkdir(this.opts.dir, { recursive: true });
      removeDeadTemporaries(this.opts.dir);
      const head = Buffer.from(JSON.stringify(header));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(head.length);
      // The temporary name is the one removeDeadTemporaries knows: a crashed writer's file goes.
      const body = form.arrays.flatMap((a) => chunks(arrayBytes(a)).map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
      await writeFileAtomic(w.file, [MAGIC, length, head, ...body], { temporary: tmp });
      trimToSize(listStoredValues(this.opts.dir), this.opts.maxBytes, w.file);
    } catch (e) {
      this.opts.notice(`stored values: ${w.describe} not kept (${(e as Error).message}); the next run computes it again`);
    }
  }
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function readExactly(fd: number, into: Uint8Array, position: number): void {
  let got = 0;
  while (got < into.length) {
    const r = readSync(fd, into, got, Math.min(CHUNK, into.length - got), position + got);
    if (r === 0) throw new CorruptEntry(`ends at byte ${position + got}, before its last array`);
    got += r;
  }
}

function readHeader(fd: number): { header: Header; end: number } {
  const start = Buffer.alloc(MAGIC.length + 4);
  readExactly(fd, start, 0);
  if (!start.subarray(0, MAGIC.length).equals(MAGIC)) throw new CorruptEntry('is not a stored value (or of another version)');
  const headBytes = start.readUInt32LE(MAGIC.length);
  if (start.length + headBytes > fstatSync(fd).size) throw new CorruptEntry('ends inside its header');
  const head = Buffer.alloc(headBytes);
  readExactly(fd, head, start.length);
  let header: unknown;
  try {
    header = JSON.parse(head.toString('utf8'));
  } catch {
    throw new CorruptEntry('has a header that is not JSON');
  }
  if (!isHeader(header)) throw new CorruptEntry('has a header of another shape');
  return { header, end: start.length + head.length };
}

function isHeader(h: unknown): h is Header {
  if (h === null || typeof h !== 'object') return false;
  const x = h as Record<string, unknown>;
  const strings = (v: unknown): boolean => Array.isArray(v) && v.every((e) => typeof e === 'string');
  const counts = (v: unknown): boolean => Array.isArray(v) && v.every((e) => Number.isSafeInteger(e) && (e as number) >= 0);
  return (
    typeof x['key'] === 'string' &&
    typeof x['describe'] === 'string' &&
    Number.isSafeInteger(x['documents']) &&
    typeof x['created'] === 'string' &&
    x['meta'] !== null &&
    typeof x['meta'] === 'object' &&
    counts(x['lengths']) &&
    strings(x['sha256']) &&
    (x['lengths'] as unknown[]).length === (x['sha256'] as unknown[]).length &&
    (x['cost'] === undefined || isCost(x['cost']))
  );
}

function isCost(c: unknown): c is SharedCost {
  if (c === null || typeof c !== 'object') return false;
  const x = c as Record<string, unknown>;
  const seconds = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
  return seconds(x['wallS']) && seconds(x['cpuS']) && Array.isArray(x['deps']) && x['deps'].every((d) => typeof d === 'string');
}

/** The arrays of a whole entry, each on a SharedArrayBuffer and checked. */
function readEntry(fd: number, key: string): { readonly form: StoredForm; readonly cost?: SharedCost } {
  const { header, end } = readHeader(fd);
  if (header.key !== key) throw new CorruptEntry('has a header that is not this entry’s');
  // The header is not checksummed: its lengths are checked against the file before anything is allocated.
  const lengths = header.lengths;
  const size = fstatSync(fd).size;
  if (end + 4 * lengths.reduce((a, b) => a + b, 0) !== size) {
    throw new CorruptEntry(`holds ${size - end} bytes of arrays where its header says otherwise`);
  }
  let at = end;
  const arrays = lengths.map((length, i) => {
    const a = new Uint32Array(new SharedArrayBuffer(Math.max(1, length) * 4), 0, length);
    readExactly(fd, arrayBytes(a), at);
    at += a.byteLength;
    if (sha256(a) !== header.sha256[i]) throw new CorruptEntry(`fails the SHA-256 check of its array ${i}`);
    return a;
  });
  return { form: { meta: header.meta, arrays }, ...(header.cost ? { cost: header.cost } : {}) };
}

/** The whole entries of a store folder, least recently used first. */
export function listStoredValues(dir: string): StoredInfo[] {
  return listFolder(dir, (name) => ENTRY.test(name), (file, st) => {
    const fd = openSync(file, 'r');
    try {
      const { header } = readHeader(fd);
      return { file, describe: header.describe, documents: header.documents, created: header.created, bytes: st.size, used: st.mtime };
    } finally {
      closeSync(fd);
    }
  });
}

/** Removes every entry (and temporary file) of a store folder. */
export function clearStoredValues(dir: string): { entries: number; bytes: number } {
  return clearFolder(dir, (name) => ENTRY.test(name));
}
