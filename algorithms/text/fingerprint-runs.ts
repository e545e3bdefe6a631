/**
 * The out-of-core form of `features.ts`: document fingerprint sets written as sorted runs.
 *
 * The corpus is cut into batches of contiguous documents small enough for a worker thread to
 * fingerprint and sort in its share of the memory budget; each batch becomes one run file of
 * distinct (fingerprint, document) records sorted by fingerprint, then document. A run is cut
 * into partitions by the top bits of the fingerprint, so that a later pass can merge one
 * partition of every run on each worker thread (fingerprints are hashes: the partitions hold
 * about equal shares). Merging the runs of a partition in batch order gives each
 * fingerprint's documents in ascending order, as `mergeSlices` does in memory.
 *
 * Then each thread merges its partitions once and splits them (`splitPartition`): the
 * fingerprints held by two documents or more, grouped, in one file, and those held by one
 * document in another. A join reads only the first (most fingerprints of a collection are in
 * one document: no pair shares them); sampling that needs each document's count of kept
 * fingerprints also scans the second, sequentially. The k-way merge is paid once for all the
 * variants of a run, not once a variant.
 */
import { rmSync } from 'node:fs';
import type { KernelContext } from '../../contract/index.ts';
import { balancedRanges } from './chunks.ts';
import { fingerprintSlice } from './features.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';
import { mergeRunChunks, RunWriter, throwIfStopped, type RunPart } from './sorted-runs.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as FingerprintRunsModule from './fingerprint-runs.ts';

/** A run of (fingerprint words…, document) records and where each partition starts in it. */
export interface FingerprintRun {
  readonly path: string;
  /** record offsets: partition p is [cuts[p], cuts[p + 1]) */
  readonly cuts: readonly number[];
}

export interface FingerprintRunPayload {
  readonly texts: readonly string[];
  /** corpus index of `texts[0]` */
  readonly firstDoc: number;
  readonly shingle: ShingleSpec;
  readonly kind: FingerprintKind;
  readonly path: string;
  /** 2^partitionBits partitions by the fingerprint's top bits */
  readonly partitionBits: number;
  readonly stop?: Int32Array;
}

export interface FingerprintRunResult {
  readonly run: FingerprintRun;
  /** distinct fingerprints of each document of the batch */
  readonly sizes: Uint32Array;
  readonly entries: number;
  readonly bytes: number;
}

/** Records written at a time: the run is interleaved chunk by chunk, not copied whole. */
const CHUNK_RECORDS = 1 << 16;

/** Runs in a worker thread: fingerprints, sorts and writes one batch as a run. */
export function fingerprintRun(p: FingerprintRunPayload): FingerprintRunResult {
  throwIfStopped(p.stop);
  const slice = fingerprintSlice({ texts: p.texts, firstDoc: p.firstDoc, shingle: p.shingle, kind: p.kind });
  throwIfStopped(p.stop);
  const { keys, owners, width } = slice;
  const n = owners.length;
  const record = width + 1;
  const sizes = new Uint32Array(p.texts.length);
  for (let i = 0; i < n; i++) {
    const d = (owners[i] as number) - p.firstDoc;
    sizes[d] = (sizes[d] as number) + 1;
  }
  const partitions = 1 << p.partitionBits;
  const cuts: number[] = [0];
  const partitionOf = (i: number): number => (p.partitionBits === 0 ? 0 : (keys[i * width] as number) >>> (32 - p.partitionBits));
  for (let i = 0, q = 1; q < partitions; q++) {
    while (i < n && partitionOf(i) < q) i++;
    cuts.push(i);
  }
  cuts.push(n);
  const w = new RunWriter(p.path);
  try {
    const chunk = new Uint32Array(Math.min(n, CHUNK_RECORDS) * record || record);
    for (let from = 0; from < n; from += CHUNK_RECORDS) {
      throwIfStopped(p.stop);
      const to = Math.min(n, from + CHUNK_RECORDS);
      for (let i = from; i < to; i++) {
        const at = (i - from) * record;
        for (let x = 0; x < width; x++) chunk[at + x] = keys[i * width + x] as number;
        chunk[at + width] = owners[i] as number;
      }
      w.write(chunk, 0, (to - from) * record);
    }
  } finally {
    w.close();
  }
  return { run: { path: p.path, cuts }, sizes, entries: n, bytes: w.bytes };
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

/** Partition `p` of every run, in document order: the input of one merge task. */
function partitionParts(runs: readonly FingerprintRun[], p: number): RunPart[] {
  return runs.map((r) => ({ path: r.path, from: r.cuts[p] as number, to: r.cuts[p + 1] as number })).filter((x) => x.to > x.from);
}

export interface SplitPartitionPayload {
  readonly parts: readonly RunPart[];
  readonly width: 2 | 4;
  /** documents of the corpus */
  readonly docs: number;
  /** files are `${path}.shared` and `${path}.single` */
  readonly path: string;
  readonly bufferRecords: number;
  readonly stop?: Int32Array;
}

export interface SplitPartitionResult extends FingerprintPartition {
  readonly bytes: number;
}

/** Runs in a worker thread: merges one partition of every run and writes its shared and single fingerprints apart. */
export function splitPartition(p: SplitPartitionPayload): SplitPartitionResult {
  const width = p.width;
  const record = width + 1;
  const shared = new RunWriter(`${p.path}.shared`);
  const single = new RunWriter(`${p.path}.single`);
  const sharedOut = new RecordOut(shared, record);
  const singleOut = new RecordOut(single, record);
  // The current fingerprint's first record, held until a second record says where it goes; its
  // later records go to the shared file as they come.
  const first = new Uint32Array(record);
  let size = 0;
  // What a join without sampling reads from memory instead of the records (external-prefix.ts).
  const sharedCounts = new Uint32Array(new SharedArrayBuffer(Math.max(1, p.docs) * 4));
  const groupsByDf = new Map<number, number>();
  const close = (): void => {
    if (size === 1) singleOut.push(first, 0);
    else if (size > 1) groupsByDf.set(size, (groupsByDf.get(size) ?? 0) + 1);
  };
  try {
    mergeRunChunks(
      p.parts,
      record,
      width,
      (w, records) => {
        for (let at = 0, end = records * record; at < end; at += record) {
          let same = size > 0;
          for (let x = 0; x < width && same; x++) same = w[at + x] === first[x];
          if (!same) {
            close();
            for (let x = 0; x < record; x++) first[x] = w[at + x] as number;
            size = 1;
            continue;
          }
          if (size === 1) {
            sharedOut.push(first, 0);
            sharedCounts[first[width] as number]!++;
          }
          sharedOut.push(w, at);
          sharedCounts[w[at + width] as number]!++;
          size++;
        }
      },
      { bufferRecords: p.bufferRecords, ...(p.stop ? { stop: p.stop } : {}) },
    );
    close();
    sharedOut.flush();
    singleOut.flush();
  } finally {
    shared.close();
    single.close();
  }
  const dfs = [...groupsByDf.keys()].sort((x, y) => x - y);
  return {
    shared: { path: shared.path, from: 0, to: sharedOut.records },
    single: { path: single.path, from: 0, to: singleOut.records },
    sharedCounts,
    frequencies: { df: Uint32Array.from(dfs), groups: Uint32Array.from(dfs, (df) => groupsByDf.get(df) as number) },
    bytes: shared.bytes + single.bytes,
  };
}

/** Records copied into a chunk and written a chunk at a time. */
class RecordOut {
  private readonly chunk: Uint32Array;
  private filled = 0;
  records = 0;

  constructor(
    private readonly writer: RunWriter,
    private readonly record: number,
  ) {
    this.chunk = new Uint32Array(CHUNK_RECORDS * record);
  }

  /** Appends the record at `words[at .. at + record)`. */
  push(words: Uint32Array, at: number): void {
    const r = this.record;
    for (let x = 0; x < r; x++) this.chunk[this.filled + x] = words[at + x] as number;
    this.filled += r;
    this.records++;
    if (this.filled === this.chunk.length) this.flush();
  }

  flush(): void {
    this.writer.write(this.chunk, 0, this.filled);
    this.filled = 0;
  }
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
  /** records each run reader buffers while merging */
  readonly bufferRecords: number;
}

export const fingerprintRuns = workerModule<typeof FingerprintRunsModule>(new URL('./fingerprint-runs.ts', import.meta.url).href);

/**
 * Writes the corpus' fingerprint runs on the kernel's worker threads, then merges and splits
 * each partition (removing the runs). Every task is awaited before an error is thrown, so that
 * no thread is still writing when the caller removes `dir`.
 */
export async function writeFingerprintRuns(k: KernelContext, o: FingerprintRunsOptions): Promise<FingerprintRuns> {
  const texts = k.docs.texts;
  let chars = 0;
  for (const t of texts) chars += t.length;
  // A multiple of the threads: three batches on two threads left one thread idle for a third of the phase.
  const threads = Math.max(1, k.parallelism);
  const wanted = Math.max(1, Math.ceil(chars / Math.max(1, o.batchChars)));
  const batches = balancedRanges(texts.length, (i) => (texts[i] as string).length, Math.ceil(wanted / threads) * threads);
  const sizes = new Uint32Array(new SharedArrayBuffer(Math.max(1, texts.length) * 4));
  let done = 0;
  k.progress('fingerprint runs', 0, batches.length);
  const settled = await Promise.allSettled(
    batches.map(async ([from, to], b) => {
      const r = await k.runInWorker(fingerprintRuns.task('fingerprintRun'), {
        texts: texts.slice(from, to),
        firstDoc: from,
        shingle: o.shingle,
        kind: o.kind,
        path: `${o.dir}/fingerprints-${String(b).padStart(5, '0')}`,
        partitionBits: o.partitionBits,
        ...(o.stop ? { stop: o.stop } : {}),
      } satisfies FingerprintRunPayload);
      sizes.set(r.sizes, from);
      k.progress('fingerprint runs', ++done, batches.length);
      return r;
    }),
  );
  const results = settleOrThrow(settled);
  const runs = results.map((r) => r.run);
  const partitions = 1 << o.partitionBits;
  const width: 2 | 4 = o.kind === 'md5' ? 4 : 2;
  done = 0;
  k.progress('merging fingerprint runs', 0, partitions);
  const split = settleOrThrow(
    await Promise.allSettled(
      Array.from({ length: partitions }, async (_, p) => {
        const r = await k.runInWorker(fingerprintRuns.task('splitPartition'), {
          parts: partitionParts(runs, p),
          width,
          docs: texts.length,
          path: `${o.dir}/partition-${String(p).padStart(3, '0')}`,
          bufferRecords: o.bufferRecords,
          ...(o.stop ? { stop: o.stop } : {}),
        } satisfies SplitPartitionPayload);
        k.progress('merging fingerprint runs', ++done, partitions);
        return r;
      }),
    ),
  );
  for (const r of runs) rmSync(r.path, { force: true });
  return {
    width,
    docs: texts.length,
    sizes,
    partitions: split.map(({ bytes: _bytes, ...partition }) => partition),
    runs: runs.length,
    entries: results.reduce((s, r) => s + r.entries, 0),
    bytes: results.reduce((s, r) => s + r.bytes, 0) + split.reduce((s, r) => s + r.bytes, 0),
  };
}

function settleOrThrow<T>(settled: readonly PromiseSettledResult<T>[]): T[] {
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}
