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
 */
import type { KernelContext } from '../../contract/index.ts';
import { balancedRanges } from './chunks.ts';
import { fingerprintSlice } from './features.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';
import { RunWriter, throwIfStopped, type RunPart } from './sorted-runs.ts';

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

/** Every document's fingerprint set, as sorted runs on disk. */
export interface FingerprintRuns {
  readonly width: 2 | 4;
  readonly docs: number;
  /** distinct fingerprints of each document (on a SharedArrayBuffer) */
  readonly sizes: Uint32Array;
  /** in document order */
  readonly runs: readonly FingerprintRun[];
  readonly partitions: number;
  readonly entries: number;
  readonly bytes: number;
}

/** Partition `p` of every run, in document order: the input of one merge task. */
export function partitionParts(runs: FingerprintRuns, p: number): RunPart[] {
  return runs.runs.map((r) => ({ path: r.path, from: r.cuts[p] as number, to: r.cuts[p + 1] as number })).filter((x) => x.to > x.from);
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
  /** the module exporting `fingerprintRun` (this one) */
  readonly moduleUrl?: string;
}

export const FINGERPRINT_RUNS_MODULE = new URL('./fingerprint-runs.ts', import.meta.url).href;

/**
 * Writes the corpus' fingerprint runs on the kernel's worker threads. Every task is awaited
 * before an error is thrown, so that no thread is still writing when the caller removes `dir`.
 */
export async function writeFingerprintRuns(k: KernelContext, o: FingerprintRunsOptions): Promise<FingerprintRuns> {
  const texts = k.docs.texts;
  let chars = 0;
  for (const t of texts) chars += t.length;
  const batches = balancedRanges(texts.length, (i) => (texts[i] as string).length, Math.max(1, Math.ceil(chars / Math.max(1, o.batchChars))));
  const sizes = new Uint32Array(new SharedArrayBuffer(Math.max(1, texts.length) * 4));
  let done = 0;
  k.progress('fingerprint runs', 0, batches.length);
  const settled = await Promise.allSettled(
    batches.map(async ([from, to], b) => {
      const r = await k.runInWorker<FingerprintRunResult>(o.moduleUrl ?? FINGERPRINT_RUNS_MODULE, 'fingerprintRun', {
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
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const results = settled.map((s) => (s as PromiseFulfilledResult<FingerprintRunResult>).value);
  return {
    width: o.kind === 'md5' ? 4 : 2,
    docs: texts.length,
    sizes,
    runs: results.map((r) => r.run),
    partitions: 1 << o.partitionBits,
    entries: results.reduce((s, r) => s + r.entries, 0),
    bytes: results.reduce((s, r) => s + r.bytes, 0),
  };
}
