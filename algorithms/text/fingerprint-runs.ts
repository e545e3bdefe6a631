/**
 * The out-of-core form of `features.ts`: document fingerprint sets written as runs on disk.
 *
 * The corpus is cut into batches of contiguous documents small enough for a worker thread to
 * fingerprint in its share of the memory budget; each batch becomes one run file of its
 * (fingerprint, document) records cut by the fingerprint's top bits into many small parts
 * (one pass, stable: within a part the records stay in document order). Fingerprints are
 * hashes, so the parts hold about equal shares. Then each worker thread takes a range of parts
 * (a partition) and, part by part, reads that part of every run (in batch order, so in document
 * order), sorts it in memory (a part fits a core's cache; the records agree on the top bits),
 * drops a document's repeats and writes the fingerprints held by two documents or more,
 * grouped, to one file and those held by one document to another (`splitPartition`). A join
 * reads only the first (most fingerprints of a collection are in one document: no pair shares
 * them); sampling that needs each document's count of kept fingerprints also scans the second,
 * sequentially. This is paid once for all the variants of a run, not once a variant.
 *
 * Sorting whole batches and merging the runs with a heap did the same with more work: a sort of
 * every batch over arrays far larger than the cache, then a comparison heap over the runs, whose
 * depth grew with the batches (docs/performance.md, "The fingerprint runs without a merge").
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import { totalLength, lengthOf, type KernelContext } from '../../contract/index.ts';
import { compareKeys } from '../../kernels/sort/compare-keys.ts';
import { scatterByTopBits, sortUniformKeys } from '../../kernels/sort/uniform-keys.ts';
import { balancedRanges, settleAll, settleLimited } from './chunks.ts';
import { dropRepeats, sliceEntries } from './features.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';
import { mergeRunChunks, readRecords, RunWriter, throwIfStopped, type RunPart } from './sorted-runs.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as FingerprintRunsModule from './fingerprint-runs.ts';

/** A run of (fingerprint words…, document) records, cut into parts by the fingerprint's top bits. */
export interface FingerprintRun {
  readonly path: string;
  /** record offsets: part q is [cuts[q], cuts[q + 1]) */
  readonly cuts: Uint32Array;
}

export interface FingerprintRunPayload {
  readonly texts: readonly string[];
  /** corpus index of `texts[0]` */
  readonly firstDoc: number;
  readonly shingle: ShingleSpec;
  readonly kind: FingerprintKind;
  readonly path: string;
  /** 2^partBits parts by the fingerprint's top bits */
  readonly partBits: number;
  readonly stop?: Int32Array;
}

export interface FingerprintRunResult {
  readonly run: FingerprintRun;
  /** records written: a document's repeats are still there */
  readonly records: number;
  readonly bytes: number;
}

/** Records written at a time: the run is interleaved chunk by chunk, not copied whole. */
const CHUNK_RECORDS = 1 << 16;

/**
 * Bits of the first of the two scatters that cut a batch into parts: 64 places to write at a
 * time stay in the cache and the TLB; 4,096 at once over a batch of hundreds of megabytes
 * missed both on nearly every record.
 */
const FIRST_SCATTER_BITS = 6;

/** Runs in a worker thread: fingerprints one batch and writes it as a run cut into parts. */
export function fingerprintRun(p: FingerprintRunPayload): FingerprintRunResult {
  throwIfStopped(p.stop);
  const { keys, owners, width } = sliceEntries(p);
  throwIfStopped(p.stop);
  const n = owners.length;
  const record = width + 1;
  const firstBits = Math.min(p.partBits, FIRST_SCATTER_BITS);
  const secondBits = p.partBits - firstBits;
  const k2 = new Uint32Array(n * width);
  const o2 = new Uint32Array(n);
  const groups = scatterByTopBits(keys, owners, { width, count: n, skip: 0, bits: firstBits, to: k2, toOwners: o2 });
  const perGroup = 2 ** secondBits;
  const cuts = new Uint32Array(2 ** p.partBits + 1);
  const start = new Uint32Array(perGroup + 1);
  const shift = 32 - secondBits;
  const partOf = (i: number): number => (secondBits === 0 ? 0 : ((k2[i * width] as number) << firstBits) >>> shift);
  let out = new Uint32Array(0);
  const w = new RunWriter(p.path);
  try {
    for (let g = 0; g < 2 ** firstBits; g++) {
      throwIfStopped(p.stop);
      const from = groups[g] as number;
      const to = groups[g + 1] as number;
      // the group's parts by the next bits, stably, each record interleaved with its owner
      start.fill(0);
      for (let i = from; i < to; i++) start[partOf(i) + 1]!++;
      for (let j = 1; j <= perGroup; j++) start[j]! += start[j - 1]!;
      for (let j = 0; j < perGroup; j++) cuts[g * perGroup + j] = from + (start[j] as number);
      if (out.length < (to - from) * record) out = new Uint32Array((to - from) * record);
      for (let i = from; i < to; i++) {
        const at = start[partOf(i)]!++ * record;
        for (let x = 0; x < width; x++) out[at + x] = k2[i * width + x] as number;
        out[at + width] = o2[i] as number;
      }
      w.write(out, 0, (to - from) * record);
    }
  } finally {
    w.close();
  }
  cuts[2 ** p.partBits] = n;
  return { run: { path: p.path, cuts }, records: n, bytes: w.bytes };
}

/** One partition of the fingerprints, merged: the shared ones grouped, and the single ones. */
export interface FingerprintPartition {
  /** records of fingerprints held by two documents or more, each fingerprint's records together, documents ascending */
  readonly shared: RunPart;
  /** records of fingerprints held by one document, in fingerprint order */
  readonly single: RunPart;
  /** each document's fingerprints of `shared` (on a SharedArrayBuffer) */
  readonly sharedCounts: Uint32Array;
  /** the shared fingerprints by document frequency: `groups[i]` of them are held by `df[i]` documents, df ascending */
  readonly frequencies: { readonly df: Uint32Array; readonly groups: Uint32Array };
}

/** Every document's fingerprint set, as merged partitions on disk. */
export interface FingerprintRuns {
  readonly width: 2 | 4;
  readonly docs: number;
  /** distinct fingerprints of each document (on a SharedArrayBuffer) */
  readonly sizes: Uint32Array;
  readonly partitions: readonly FingerprintPartition[];
  /** sorted runs written before the merge (one a batch) */
  readonly runs: number;
  readonly entries: number;
  /** bytes written: the runs, then the partitions */
  readonly bytes: number;
}

export interface SplitPartitionPayload {
  /** every run's path and the cuts of this partition's parts: `cuts[0 .. parts]` */
  readonly runs: readonly FingerprintRun[];
  readonly width: 2 | 4;
  /** the records of a part agree on this many top bits of the fingerprint */
  readonly partBits: number;
  /** documents of the corpus */
  readonly docs: number;
  /** files are `${path}.shared` and `${path}.single` */
  readonly path: string;
  readonly stop?: Int32Array;
}

export interface SplitPartitionResult extends FingerprintPartition {
  /** distinct fingerprints of each document in this partition */
  readonly sizes: Uint32Array;
  readonly entries: number;
  readonly bytes: number;
}

/** A growing set of arrays for one part's records: read, split into keys and owners, sorted. */
class PartBuffers {
  records = new Uint32Array(0);
  keys = new Uint32Array(0);
  owners = new Uint32Array(0);
  scratchKeys = new Uint32Array(0);
  scratchOwners = new Uint32Array(0);

  ensure(count: number, width: number): void {
    if (this.owners.length >= count) return;
    const n = Math.max(count, Math.ceil(this.owners.length * 1.5));
    this.records = new Uint32Array(n * (width + 1));
    this.keys = new Uint32Array(n * width);
    this.owners = new Uint32Array(n);
    this.scratchKeys = new Uint32Array(n * width);
    this.scratchOwners = new Uint32Array(n);
  }
}

/**
 * Runs in a worker thread: for each part of the partition, reads that part of every run, sorts
 * it, drops repeats and writes its shared and single fingerprints apart.
 */
export function splitPartition(p: SplitPartitionPayload): SplitPartitionResult {
  const width = p.width;
  const record = width + 1;
  const parts = (p.runs[0]?.cuts.length ?? 1) - 1;
  const shared = new RunWriter(`${p.path}.shared`);
  const single = new RunWriter(`${p.path}.single`);
  const sharedOut = new RecordOut(shared, width);
  const singleOut = new RecordOut(single, width);
  // Each document's size and shared count side by side: the records come in fingerprint order,
  // so their documents are random, and one cache line then serves both counts.
  const counts = new Uint32Array(Math.max(1, p.docs) * 2);
  // What a join without sampling reads from memory instead of the records (external-prefix.ts).
  const sharedCounts = new Uint32Array(new SharedArrayBuffer(Math.max(1, p.docs) * 4));
  // groups[df]: fingerprints held by df documents (a Map here cost a third of the split)
  const groupsByDf = new Uint32Array(Math.max(1, p.docs) + 1);
  const buffers = new PartBuffers();
  const fds: number[] = [];
  let entries = 0;
  try {
    for (const r of p.runs) fds.push(openSync(r.path, 'r'));
    for (let q = 0; q < parts; q++) {
      throwIfStopped(p.stop);
      let count = 0;
      for (const r of p.runs) count += (r.cuts[q + 1] as number) - (r.cuts[q] as number);
      if (count === 0) continue;
      buffers.ensure(count, width);
      let at = 0;
      p.runs.forEach((r, i) => {
        const from = r.cuts[q] as number;
        const to = r.cuts[q + 1] as number;
        if (to > from) readRecords(fds[i] as number, r.path, { from, to, width: record, into: buffers.records, at });
        at += to - from;
      });
      const { records, keys, owners } = buffers;
      for (let i = 0; i < count; i++) {
        for (let x = 0; x < width; x++) keys[i * width + x] = records[i * record + x] as number;
        owners[i] = records[i * record + width] as number;
      }
      // Stable: equal fingerprints stay in document order, so a document's repeats are neighbours.
      const sorted = sortUniformKeys(keys, owners, { width, count, agreeBits: p.partBits, scratch: { keys: buffers.scratchKeys, owners: buffers.scratchOwners } });
      const n = dropRepeats(sorted.records, sorted.owners, width, count);
      entries += n;
      splitSorted(sorted.records, sorted.owners, n, { width, counts, groupsByDf, sharedOut, singleOut });
    }
    sharedOut.flush();
    singleOut.flush();
  } finally {
    for (const fd of fds) closeSync(fd);
    shared.close();
    single.close();
  }
  const sizes = new Uint32Array(Math.max(1, p.docs));
  for (let d = 0; d < p.docs; d++) {
    sizes[d] = counts[2 * d] as number;
    sharedCounts[d] = counts[2 * d + 1] as number;
  }
  const dfs: number[] = [];
  for (let df = 2; df < groupsByDf.length; df++) if (groupsByDf[df] !== 0) dfs.push(df);
  return {
    shared: { path: shared.path, from: 0, to: sharedOut.records },
    single: { path: single.path, from: 0, to: singleOut.records },
    sharedCounts,
    frequencies: { df: Uint32Array.from(dfs), groups: Uint32Array.from(dfs, (df) => groupsByDf[df] as number) },
    sizes,
    entries,
    bytes: shared.bytes + single.bytes,
  };
}

interface SplitTargets {
  readonly width: number;
  /** each document's size, then its shared count */
  readonly counts: Uint32Array;
  readonly groupsByDf: Uint32Array;
  readonly sharedOut: RecordOut;
  readonly singleOut: RecordOut;
}

/** The distinct entries [0, n), sorted: each fingerprint's entries to the shared file when it has two or more, else to the single one. */
function splitSorted(keys: Uint32Array, owners: Uint32Array, n: number, t: SplitTargets): void {
  const { width, counts, groupsByDf, sharedOut, singleOut } = t;
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && compareKeys(keys, start, keys, end, width) === 0) end++;
    const df = end - start;
    if (df === 1) {
      counts[2 * (owners[start] as number)]!++;
      singleOut.push(keys, start, owners[start] as number);
    } else {
      for (let i = start; i < end; i++) {
        sharedOut.push(keys, i, owners[i] as number);
        const d = owners[i] as number;
        counts[2 * d]!++;
        counts[2 * d + 1]!++;
      }
      groupsByDf[df]!++;
    }
    start = end;
  }
}

/** Records (key words, then owner) copied into a chunk and written a chunk at a time. */
class RecordOut {
  private readonly chunk: Uint32Array;
  private filled = 0;
  records = 0;

  constructor(
    private readonly writer: RunWriter,
    private readonly width: number,
  ) {
    this.chunk = new Uint32Array(CHUNK_RECORDS * (width + 1));
  }

  /** Appends the entry `i` of `keys` with its owner. */
  push(keys: Uint32Array, i: number, owner: number): void {
    const w = this.width;
    for (let x = 0; x < w; x++) this.chunk[this.filled + x] = keys[i * w + x] as number;
    this.chunk[this.filled + w] = owner;
    this.filled += w + 1;
    this.records++;
    if (this.filled === this.chunk.length) this.flush();
  }

  flush(): void {
    this.writer.write(this.chunk, 0, this.filled);
    this.filled = 0;
  }
}

/**
 * Each fingerprint of a partition's `shared` records, in fingerprint order, with the documents
 * holding it (ascending): `visit(fp, docs, df)` sees `docs[0 .. df)`; both arrays are valid only
 * during the call. What every reader of the shared records walks (the joins, the rank lists).
 */
export function forEachSharedFingerprint(
  shared: RunPart,
  o: { readonly width: 2 | 4; readonly bufferRecords: number; readonly stop?: Int32Array | undefined },
  visit: (fp: Uint32Array, docs: Uint32Array, df: number) => void,
): void {
  const width = o.width;
  const record = width + 1;
  const fp = new Uint32Array(width);
  let group = new Uint32Array(1024);
  let size = 0;
  mergeRunChunks(
    [shared],
    record,
    width,
    (w, records) => {
      for (let at = 0, end = records * record; at < end; at += record) {
        let same = size > 0;
        for (let x = 0; x < width && same; x++) same = w[at + x] === fp[x];
        if (!same) {
          if (size > 0) visit(fp, group, size);
          size = 0;
          for (let x = 0; x < width; x++) fp[x] = w[at + x] as number;
        }
        if (size === group.length) {
          const g = new Uint32Array(group.length * 2);
          g.set(group);
          group = g;
        }
        group[size++] = w[at + width] as number;
      }
    },
    { bufferRecords: o.bufferRecords, ...(o.stop ? { stop: o.stop } : {}) },
  );
  if (size > 0) visit(fp, group, size);
}

export interface FingerprintRunsOptions {
  readonly shingle: ShingleSpec;
  readonly kind: FingerprintKind;
  /** folder of the run files */
  readonly dir: string;
  /** a batch holds documents of at most this many characters (at least one document) */
  readonly batchChars: number;
  readonly partitionBits: number;
  readonly stop?: Int32Array;
}

export const fingerprintRuns = workerModule<typeof FingerprintRunsModule>(new URL('./fingerprint-runs.ts', import.meta.url).href);

/** Entries a part should hold: with its copies it fits a core's cache when sorted. */
const PART_ENTRIES = 1 << 16;

/**
 * Bits of the parts of the runs: about `PART_ENTRIES` entries a part, estimating an entry every
 * four characters (shingles start at words), and at least the partitions' bits.
 */
export function partBitsFor(chars: number, partitionBits: number): number {
  return Math.max(partitionBits, Math.min(20, Math.ceil(Math.log2(Math.max(1, chars / 4 / PART_ENTRIES)))));
}

/**
 * Writes the corpus' fingerprint runs on the kernel's worker threads, then sorts and splits
 * each partition (removing the runs). Every task is awaited before an error is thrown, so that
 * no thread is still writing when the caller removes `dir`.
 */
export async function writeFingerprintRuns(k: KernelContext, o: FingerprintRunsOptions): Promise<FingerprintRuns> {
  const texts = k.docs.texts;
  const chars = totalLength(texts);
  // A multiple of the threads: three batches on two threads left one thread idle for a third of the phase.
  const threads = Math.max(1, k.parallelism);
  const wanted = Math.max(1, Math.ceil(chars / Math.max(1, o.batchChars)));
  const batches = balancedRanges(texts.length, (i) => lengthOf(texts, i), Math.ceil(wanted / threads) * threads);
  const partBits = partBitsFor(chars, o.partitionBits);
  let done = 0;
  k.progress('fingerprint runs', 0, batches.length);
  // Two batches a thread in flight: the pool is never idle, and texts a file holds are read back
  // a batch at a time rather than all at once.
  const results = await settleLimited(batches, 2 * threads, async ([from, to], b) => {
    const r = await k.runInWorker(fingerprintRuns.task('fingerprintRun'), {
      texts: texts.slice(from, to),
      firstDoc: from,
      shingle: o.shingle,
      kind: o.kind,
      path: `${o.dir}/fingerprints-${String(b).padStart(5, '0')}`,
      partBits,
      ...(o.stop ? { stop: o.stop } : {}),
    } satisfies FingerprintRunPayload);
    k.progress('fingerprint runs', ++done, batches.length);
    return r;
  });
  const runs = results.map((r) => r.run);
  const partitions = 1 << o.partitionBits;
  const partsEach = 2 ** (partBits - o.partitionBits);
  const width: 2 | 4 = o.kind === 'md5' ? 4 : 2;
  done = 0;
  k.progress('sorting fingerprint runs', 0, partitions);
  const split = await settleAll(
    Array.from({ length: partitions }, async (_, p) => {
      const r = await k.runInWorker(fingerprintRuns.task('splitPartition'), {
        runs: runs.map((run) => ({ path: run.path, cuts: run.cuts.slice(p * partsEach, (p + 1) * partsEach + 1) })),
        width,
        partBits,
        docs: texts.length,
        path: `${o.dir}/partition-${String(p).padStart(3, '0')}`,
        ...(o.stop ? { stop: o.stop } : {}),
      } satisfies SplitPartitionPayload);
      k.progress('sorting fingerprint runs', ++done, partitions);
      return r;
    }),
  );
  for (const r of runs) rmSync(r.path, { force: true });
  const sizes = new Uint32Array(new SharedArrayBuffer(Math.max(1, texts.length) * 4));
  for (const r of split) for (let d = 0; d < texts.length; d++) sizes[d]! += r.sizes[d] as number;
  return {
    width,
    docs: texts.length,
    sizes,
    partitions: split.map(({ bytes: _bytes, sizes: _sizes, entries: _entries, ...partition }) => partition),
    runs: runs.length,
    entries: split.reduce((s, r) => s + r.entries, 0),
    bytes: results.reduce((s, r) => s + r.bytes, 0) + split.reduce((s, r) => s + r.bytes, 0),
  };
}

/**
 * The cache key (`KernelContext.cached`) of the fingerprint runs of one shingling and
 * fingerprint: the variants of a run share them, and the explanations of its errors read their
 * document frequencies by it (feature-counts.ts).
 */
export function fingerprintRunsKey(shingle: ShingleSpec, kind: FingerprintKind): string {
  return `fingerprint-runs:${JSON.stringify(shingle)}:${kind}`;
}

/** Fingerprint runs as a kernel keeps them for the run (`fingerprintRunsKey`): their folder, and whether an interrupt removed it. */
export interface HeldFingerprintRuns extends FingerprintRuns {
  readonly dir: string;
  removed: boolean;
}

/** Records a search reads at once: the last steps of a binary search, and a group's end. */
const SEARCH_WINDOW = 64;

/**
 * How many documents hold each of the fingerprints `keys` (`runs.width` words each, most
 * significant first, key i at `keys[i * width]`), from the runs' partitions: the length of its
 * group in the shared file of its partition (the top bits of its first word), else 1 when the
 * single file holds it, else 0. By binary search over the files' records, each partition's keys
 * in ascending order so that each search starts where the last one ended: a few small reads a
 * key, where counting from the texts is a pass over the collection.
 */
export function documentFrequencies(runs: FingerprintRuns, keys: Uint32Array): Uint32Array {
  const width = runs.width;
  const n = keys.length / width;
  const counts = new Uint32Array(n);
  const bits = 31 - Math.clz32(runs.partitions.length);
  const byPartition: number[][] = runs.partitions.map(() => []);
  for (let i = 0; i < n; i++) byPartition[bits === 0 ? 0 : (keys[i * width] as number) >>> (32 - bits)]?.push(i);
  runs.partitions.forEach((partition, p) => {
    const asked = (byPartition[p] as number[]).sort((i, j) => compareKeys(keys, i, keys, j, width));
    const absent = groupLengths(partition.shared, { width, keys, asked, counts });
    groupLengths(partition.single, { width, keys, asked: absent, counts });
  });
  return counts;
}

/**
 * Each key of `asked` (ascending)'s records in `part` into `counts`; returns the keys it has none of.
 */
function groupLengths(part: RunPart, o: { readonly width: number; readonly keys: Uint32Array; readonly asked: readonly number[]; readonly counts: Uint32Array }): number[] {
  if (o.asked.length === 0 || part.to === part.from) return [...o.asked];
  const absent: number[] = [];
  const fd = openSync(part.path, 'r');
  try {
    const search = new RecordSearch(fd, part, o.width);
    let from = part.from;
    for (const i of o.asked) {
      from = search.lowerBound(o.keys, i, from);
      const held = search.groupEnd(o.keys, i, from) - from;
      o.counts[i] = held;
      if (held === 0) absent.push(i);
    }
  } finally {
    closeSync(fd);
  }
  return absent;
}

/** Searches for keys in a run part of (key, document) records sorted by key, reading records at offsets. */
class RecordSearch {
  private readonly record: number;
  private window: Uint32Array;

  constructor(
    private readonly fd: number,
    private readonly part: RunPart,
    private readonly width: number,
  ) {
    this.record = width + 1;
    this.window = new Uint32Array(SEARCH_WINDOW * this.record);
  }

  /** Compares the key of the window's record r with key i of `keys`. */
  private compare(r: number, keys: Uint32Array, i: number): number {
    const w = this.width;
    for (let x = 0; x < w; x++) {
      const p = this.window[r * this.record + x] as number;
      const q = keys[i * w + x] as number;
      if (p !== q) return p < q ? -1 : 1;
    }
    return 0;
  }

  private read(from: number, to: number): void {
    if (this.window.length < (to - from) * this.record) this.window = new Uint32Array((to - from) * this.record);
    readRecords(this.fd, this.part.path, { from, to, width: this.record, into: this.window, at: 0 });
  }

  /** The first record of [from, part.to) whose key is not below key i of `keys`. */
  lowerBound(keys: Uint32Array, i: number, from: number): number {
    let lo = from;
    let hi = this.part.to;
    while (hi - lo > SEARCH_WINDOW) {
      const mid = lo + Math.floor((hi - lo) / 2);
      this.read(mid, mid + 1);
      if (this.compare(0, keys, i) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo === hi) return lo;
    this.read(lo, hi);
    let r = 0;
    while (r < hi - lo && this.compare(r, keys, i) < 0) r++;
    return lo + r;
  }

  /** The end of the records of key i from `from` (its first record, or where it would be): windows that double until one holds another key. */
  groupEnd(keys: Uint32Array, i: number, from: number): number {
    let at = from;
    let span = SEARCH_WINDOW;
    while (at < this.part.to) {
      const to = Math.min(this.part.to, at + span);
      this.read(at, to);
      for (let r = 0; r < to - at; r++) if (this.compare(r, keys, i) !== 0) return at + r;
      at = to;
      span = Math.min(span * 2, 1 << 16);
    }
    return at;
  }
}

