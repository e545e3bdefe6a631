/**
 * The Broder kernel out of core, for corpora whose in-memory join (`kernel.ts`) would not fit
 * `memory_mb`: the same pairs, scores and counters, with memory bounded by the budget and the
 * data in sorted runs under the kernel's work folder.
 *
 *   1. fingerprint runs (shared by the variants of a run, `ctx.cached`): batches of documents
 *      fingerprinted and sorted on the worker threads, one run file each (`fingerprint-runs.ts`)
 *   2. MR#1's reducer: one task a fingerprint partition merges that partition of every run
 *      into fingerprint groups, samples, applies SCT, and counts pairs in a table that spills
 *      sorted runs of (a, b, count) cut by ranges of a (`external-join.ts`, `pair-count-runs.ts`)
 *   3. MR#2: one task a range of a merges that range of every pair run, sums each pair's counts
 *      and scores it; the ranges are concatenated in order, so the pairs come out sorted
 *
 * Both worker threads work in every phase. Memory: what the process holds when the kernel
 * starts (the documents, earlier results) plus, per thread, the share of the rest of the budget
 * the sizes below are computed from. Every phase awaits all its tasks before it throws, so
 * that no thread is still writing when the files are removed: the pair runs on success,
 * failure and interrupt, the fingerprint runs when the run is interrupted (otherwise they
 * serve the next variants, and go with the run's work folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { concatPairs, countIfAny, type KernelContext, type KernelResult } from '../../contract/index.ts';
import { settleAll } from '../text/chunks.ts';
import { fingerprintRunsKey, writeFingerprintRuns, type HeldFingerprintRuns } from '../text/fingerprint-runs.ts';
import { pairCapacityFor, pairRanges, rangeParts } from '../text/pair-count-runs.ts';
import { stopFlag } from '../text/sorted-runs.ts';
import type { JoinPartitionPayload, ScoreRangePayload } from './external-join.ts';
import { listsBytes, prefixJoinBytes, rankLists, runRankPrefixJoin, type RankLists } from './external-prefix.ts';
import { runSctCount, sctCountBytes } from './external-sct.ts';
import { MR1, MR2 } from './jobs.ts';
import type { BroderParams } from './params.ts';
import { usesPrefixJoin } from './prefix-join.ts';
import { countsDistinctPairs, usesSampledSize } from './sampling.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as ExternalJoin from './external-join.ts';

export const externalJoin = workerModule<typeof ExternalJoin>(new URL('./external-join.ts', import.meta.url).href);

/**
 * Worker-thread bytes per character of a fingerprinted batch: measured 6.8 for the fingerprints
 * and their sort copies (synthetic mail text, about 6 characters an entry), plus the text's copy
 * on the thread and, briefly, its serialized form on the main thread.
 */
const BATCH_BYTES_PER_CHAR = 12;
/** Records each run reader buffers. */
const BUFFER_RECORDS = 1 << 15;
const MIB = 2 ** 20;

export interface ExternalSizes {
  /** bytes one worker thread may hold */
  readonly perThread: number;
  /** a fingerprint batch holds documents of at most this many characters */
  readonly batchChars: number;
  /** fingerprint partitions: 2^partitionBits */
  readonly partitionBits: number;
  /** ranges of the pair runs */
  readonly ranges: number;
  readonly bufferRecords: number;
}

/**
 * The sizes of the phases for a budget: what the process holds (`residentBytes`) and a reserve
 * for the threads' own heaps come off the budget, and each thread gets an equal share of the
 * rest. A budget the process already exceeds still runs, in small pieces (a share of at least
 * min(budget / 4 threads, 32 MiB)).
 */
export function externalSizes(budgetBytes: number, residentBytes: number, parallelism: number): ExternalSizes {
  const threads = Math.max(1, parallelism);
  const reserve = 64 * MIB + 48 * MIB * threads;
  const free = budgetBytes - residentBytes - reserve;
  const perThread = Math.max(Math.min(budgetBytes / (4 * threads), 32 * MIB), free / threads);
  return {
    perThread,
    batchChars: Math.max(1, Math.floor(perThread / BATCH_BYTES_PER_CHAR)),
    partitionBits: Math.ceil(Math.log2(2 * threads)),
    ranges: 2 * threads,
    bufferRecords: BUFFER_RECORDS,
  };
}

/** Fingerprint runs as the kernel caches them, with their folder (read by the explanations too: feature-counts.ts). */
type CachedRuns = HeldFingerprintRuns;

/** What a run of the out-of-core kernel did, for tests and benchmarks. */
export interface ExternalStats {
  readonly sizes: ExternalSizes;
  readonly capacityPairs: number;
  readonly fingerprintRuns: number;
  readonly fingerprintBytes: number;
  readonly pairRuns: number;
  readonly pairBytes: number;
}

/** Sizes to use instead of those computed from the budget, and a callback for the stats (tests). */
export interface ExternalTuning extends Partial<ExternalSizes> {
  readonly capacityPairs?: number;
  /**
   * The ground truth from a floor by the prefix join (external-prefix.ts): when its index fits
   * the budget (default), always, or never (the spilled full join).
   */
  readonly prefixJoin?: 'fits' | 'always' | 'never';
  /** SCT sampling by counting along the kept ranks' postings (external-sct.ts): when it fits the budget (default), always, or never (the spilled full join). */
  readonly sctCount?: 'fits' | 'always' | 'never';
  report?(stats: ExternalStats): void;
}

/** The corpus' fingerprint runs, written once per run and shingling (`ctx.cached`). */
async function fingerprintRuns(k: KernelContext, params: BroderParams, sizes: ExternalSizes, stop: Int32Array, creating: () => void): Promise<CachedRuns> {
  const runs = await k.cached<CachedRuns>(fingerprintRunsKey(params.shingle, params.fingerprint), async () => {
    creating();
    const dir = mkdtempSync(join(k.workDir, 'fingerprint-runs-'));
    try {
      const r = await writeFingerprintRuns(k, { shingle: params.shingle, kind: params.fingerprint, dir, batchChars: sizes.batchChars, partitionBits: sizes.partitionBits, stop });
      return { ...r, dir, removed: false };
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  });
  if (runs.removed) throw new Error(`the fingerprint runs in ${runs.dir} were removed when an earlier variant was interrupted`);
  return runs;
}

/** The key of the rank lists (external-prefix.ts) of a shingling, which the scorer shares with the ground truth. */
function rankListsKey(params: BroderParams): string {
  return `broder-rank-lists:${JSON.stringify(params.shingle)}:${params.fingerprint}`;
}

/**
 * The documents' shared fingerprints as rank lists, with their sizes, out of core: the exact
 * scorer's lists when the in-memory kernel does not fit (kernel.ts), made from the fingerprint
 * runs unless the ground truth made them in this run.
 */
export async function outOfCoreLists(k: KernelContext, params: BroderParams): Promise<RankLists> {
  const stop = stopFlag(k.signal);
  const sizes = externalSizes(k.memoryBudgetBytes, process.memoryUsage.rss(), k.parallelism);
  const fp = await fingerprintRuns(k, params, sizes, stop, () => undefined);
  return k.cached(rankListsKey(params), () => rankLists(k, fp, { bufferRecords: sizes.bufferRecords, stop }));
}

/** Bytes the process may still take on: the budget less what it holds and the threads' reserve (externalSizes). */
function headroom(k: KernelContext): number {
  return k.memoryBudgetBytes - process.memoryUsage.rss() - (64 * MIB + 48 * MIB * Math.max(1, k.parallelism));
}

export async function runExternal(k: KernelContext, params: BroderParams, floor: number, tuning: ExternalTuning = {}): Promise<KernelResult> {
  const stop = stopFlag(k.signal);
  const { report, capacityPairs: fixedCapacity, prefixJoin = 'fits', sctCount = 'fits', ...fixed } = tuning;
  const sizes: ExternalSizes = { ...externalSizes(k.memoryBudgetBytes, process.memoryUsage.rss(), k.parallelism), ...fixed };
  let created = false;
  let runs: CachedRuns | undefined;
  let dir: string | undefined;
  try {
    const fp = await fingerprintRuns(k, params, sizes, stop, () => (created = true));
    runs = fp;
    k.signal.throwIfAborted();
    if (usesPrefixJoin(params, floor) && (prefixJoin === 'always' || (prefixJoin === 'fits' && prefixJoinBytes(fp, k.parallelism) <= headroom(k)))) {
      const lists = await k.cached(rankListsKey(params), () => rankLists(k, fp, { bufferRecords: sizes.bufferRecords, stop }));
      k.signal.throwIfAborted();
      const r = await runRankPrefixJoin(k, { fp, lists, floor, stop, countDistinct: countsDistinctPairs(params.sampling) });
      report?.({ sizes, capacityPairs: 0, fingerprintRuns: fp.runs, fingerprintBytes: fp.bytes, pairRuns: 0, pairBytes: 0 });
      return { ...r, spillBytes: created ? fp.bytes : 0 };
    }
    const sampling = params.sampling;
    if (sampling.method === 'sct' && (sctCount === 'always' || (sctCount === 'fits' && listsBytes(fp) + sctCountBytes(fp, { threshold: sampling.threshold, threads: k.parallelism }) <= headroom(k)))) {
      const lists = await k.cached(rankListsKey(params), () => rankLists(k, fp, { bufferRecords: sizes.bufferRecords, stop }));
      k.signal.throwIfAborted();
      const r = await runSctCount(k, { fp, lists, threshold: sampling.threshold, floor, bufferRecords: sizes.bufferRecords, stop });
      report?.({ sizes, capacityPairs: 0, fingerprintRuns: fp.runs, fingerprintBytes: fp.bytes, pairRuns: 0, pairBytes: 0 });
      return { ...r, spillBytes: created ? fp.bytes : 0 };
    }
    const pairDir = mkdtempSync(join(k.workDir, 'pair-runs-'));
    dir = pairDir;
    const docs = fp.docs;
    const sampled = usesSampledSize(params.sampling);
    const bounds = pairRanges(docs, sizes.ranges);
    const record = fp.width + 1;
    // A join task holds its pair table and spill, a read buffer, and per-document arrays.
    const held = sizes.bufferRecords * record * 4 + docs * 4 * (sampled ? 3 : 0);
    const capacityPairs = fixedCapacity ?? pairCapacityFor(sizes.perThread - held);
    let done = 0;
    const partitions = fp.partitions.length;
    k.progress('join (out of core)', 0, partitions);
    const joins = await settleAll(
      fp.partitions.map(async (part, p) => {
        const r = await k.runInWorker(externalJoin.task('joinPartition'), {
          shared: part.shared,
          single: sampled ? part.single : null,
          width: fp.width,
          sampling: params.sampling,
          sizes: fp.sizes,
          docs,
          bounds,
          capacityPairs,
          bufferRecords: sizes.bufferRecords,
          pathPrefix: join(pairDir, `p${p}`),
          stop,
        } satisfies JoinPartitionPayload);
        k.progress('join (out of core)', ++done, partitions);
        return r;
      }),
    );
    k.signal.throwIfAborted();

    // MR#1's counters, as the in-memory kernel reports them.
    let fingerprints = 0;
    for (let d = 0; d < docs; d++) fingerprints += fp.sizes[d] as number;
    let scoreSizes = fp.sizes;
    if (sampled) {
      scoreSizes = new Uint32Array(new SharedArrayBuffer(Math.max(1, docs) * 4));
      for (const j of joins) {
        const own = j.own as Uint32Array;
        for (let d = 0; d < docs; d++) scoreSizes[d] = (scoreSizes[d] as number) + (own[d] as number);
      }
    }
    let kept = 0;
    let empty = 0;
    for (let d = 0; d < docs; d++) {
      const own = sampled ? (scoreSizes[d] as number) : (fp.sizes[d] as number);
      kept += own;
      if (own === 0) empty++;
    }
    // MR#1's mapper counts documents and fingerprints for every document, the rest only when they happen.
    if (docs > 0) {
      k.count(MR1, 'documents', docs);
      k.count(MR1, 'fingerprints', fingerprints);
    }
    countIfAny(k, MR1, 'fingerprints_kept', kept);
    countIfAny(k, MR1, 'documents_without_fingerprints', empty);
    countIfAny(k, MR1, 'fingerprints_over_sct', joins.reduce((s, j) => s + j.overSct, 0));
    countIfAny(k, MR1, 'output_pairs', joins.reduce((s, j) => s + j.outputPairs, 0));

    done = 0;
    k.progress('resemblance (out of core)', 0, sizes.ranges);
    const pairRuns = joins.flatMap((j) => j.runs);
    const scored = await settleAll(
      Array.from({ length: sizes.ranges }, async (_, q) => {
        const r = await k.runInWorker(externalJoin.task('scoreRange'), {
          parts: rangeParts(pairRuns, q),
          sizes: scoreSizes,
          floor,
          bufferRecords: sizes.bufferRecords,
          stop,
        } satisfies ScoreRangePayload);
        k.progress('resemblance (out of core)', ++done, sizes.ranges);
        return r;
      }),
    );
    k.signal.throwIfAborted();
    const pairs = concatPairs(scored);
    if (countsDistinctPairs(params.sampling)) countIfAny(k, MR2, 'distinct_pairs', scored.reduce((s, r) => s + r.distinct, 0));
    countIfAny(k, MR2, 'output_pairs', pairs.a.length);
    const pairBytes = joins.reduce((s, j) => s + j.bytes, 0);
    report?.({ sizes, capacityPairs, fingerprintRuns: fp.runs, fingerprintBytes: fp.bytes, pairRuns: pairRuns.length, pairBytes });
    return { pairs, spillBytes: (created ? fp.bytes : 0) + pairBytes };
  } catch (e) {
    if (k.signal.aborted) {
      if (runs) {
        runs.removed = true;
        rmSync(runs.dir, { recursive: true, force: true });
      }
      throw k.signal.reason ?? e;
    }
    throw e;
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}
