/**
 * SCT sampling out of core (Nikkhoo 3.3.2) by counting along postings, instead of the spilled
 * MR#1 of `external.ts`: the same pairs, scores and counters, without writing MR#1's emissions.
 *
 * SCT keeps the fingerprints held by at most `threshold` documents. The rank lists
 * (external-prefix.ts) number the fingerprints held by two documents or more rarest first, so
 * the kept ones are the ranks below the first rank of a larger frequency, and each document's
 * kept fingerprints are the head of its ascending list. Their postings (each kept rank's
 * documents, ascending) are written straight from the partitions' shared records on the worker
 * threads (`sctPostings`); then, for each document a, a count a document b along the postings of
 * a's kept ranks after a (ScanCount, `sctJoin`) gives every pair sharing c ≥ 1 kept fingerprints,
 * scored c / (|A| + |B| − c) with the full sizes: MR#2's own expression, so the same double.
 *
 * MR#1's emissions (862 M at a million web-like documents, for 38 M distinct pairs) become
 * increments of a count a document, instead of records sorted and merged through the disk:
 * every one is still visited, but for tens of nanoseconds instead of over a hundred. The
 * postings take four bytes a kept entry; `sctCountBytes` says what the phase holds, before
 * anything is made, for the caller to weigh against the budget.
 */
import { concatPairs, countIfAny, type KernelContext, type KernelResult } from '../../contract/index.ts';
import { workerModule } from '../../contract/tasks.ts';
import { balancedRanges, settleAll, sharedU32 } from '../text/chunks.ts';
import { forEachSharedFingerprint, type FingerprintRuns } from '../text/fingerprint-runs.ts';
import { PairBuffer } from '../text/pair-buffer.ts';
import { throwIfStopped, type RunPart } from '../text/sorted-runs.ts';
import { rankStarts, type RankLists } from './external-prefix.ts';
import { MR1, MR2 } from './jobs.ts';
import { pairsOf } from './sampling.ts';
import type * as ExternalSct from './external-sct.ts';

export const externalSct = workerModule<typeof ExternalSct>(new URL('./external-sct.ts', import.meta.url).href);

/** The kept ranks' share of the fingerprint runs, from the partitions' counts alone. */
interface KeptShare {
  /** ranks below this are kept (held by at most the threshold) */
  readonly kept: number;
  /** postings entries of the kept ranks */
  readonly entries: number;
  /** fingerprints shared by more documents than the threshold (MR#1's `fingerprints_over_sct`) */
  readonly overSct: number;
  /** MR#1's pair emissions: every pair of every kept fingerprint's documents */
  readonly emissions: number;
}

function keptShare(fp: FingerprintRuns, threshold: number): KeptShare {
  let kept = 0;
  let entries = 0;
  let overSct = 0;
  let emissions = 0;
  for (const part of fp.partitions) {
    part.frequencies.df.forEach((df, i) => {
      const groups = part.frequencies.groups[i] as number;
      if (df > threshold) {
        overSct += groups;
        return;
      }
      kept += groups;
      entries += groups * df;
      emissions += groups * pairsOf(df);
    });
  }
  return { kept, entries, overSct, emissions };
}

/** Bytes the count holds at its peak beside the rank lists: the postings, and each thread's counts and touched documents. */
export function sctCountBytes(fp: FingerprintRuns, o: { readonly threshold: number; readonly threads: number }): number {
  const share = keptShare(fp, o.threshold);
  return 4 * share.entries + 4 * (share.kept + 1) + 8 * (fp.docs + 1) * Math.max(1, o.threads);
}

export interface SctPostingsPayload {
  readonly shared: RunPart;
  readonly width: 2 | 4;
  /** the partition's document frequencies, ascending, and the first rank of each (external-prefix.ts rankStarts) */
  readonly df: Uint32Array;
  readonly firstRank: Uint32Array;
  readonly threshold: number;
  /** where each kept rank's documents go in `postDocs` */
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  readonly bufferRecords: number;
  readonly stop?: Int32Array;
}

/**
 * Runs in a worker thread: one read of a partition's shared records; each fingerprint held by at
 * most the threshold takes the next rank of its frequency in this partition (as the rank lists
 * numbered it) and writes its documents, ascending, at that rank's postings.
 */
export function sctPostings(p: SctPostingsPayload): void {
  const next = new Map<number, number>();
  p.df.forEach((df, i) => next.set(df, p.firstRank[i] as number));
  forEachSharedFingerprint(p.shared, { width: p.width, bufferRecords: p.bufferRecords, stop: p.stop }, (_fp, docs, df) => {
    if (df > p.threshold) return;
    const rank = next.get(df);
    if (rank === undefined) throw new Error(`${p.shared.path}: a fingerprint held by ${df} documents, which the partition's counts do not have`);
    next.set(df, rank + 1);
    p.postDocs.set(docs.subarray(0, df), p.postStart[rank] as number);
  });
}

export interface SctJoinPayload {
  /** the rank lists (external-prefix.ts RankLists): each document's ranks, ascending */
  readonly docStart: Uint32Array;
  readonly ranks: Uint32Array;
  /** ranks below this are kept */
  readonly kept: number;
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  /** each document's distinct fingerprints: SCT scores with the full sizes */
  readonly sizes: Uint32Array;
  readonly docs: number;
  readonly floor: number;
  readonly from: number;
  readonly to: number;
  readonly stop?: Int32Array;
}

export interface SctJoinResult {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  /** pairs sharing a kept fingerprint (MR#2's reduce calls) */
  readonly distinct: number;
}

/** Runs in a worker thread: the pairs (a, b > a), a in [from, to), sharing a kept fingerprint, scored, sorted by (a, b). */
export function sctJoin(p: SctJoinPayload): SctJoinResult {
  const { docStart, ranks, kept, postStart, postDocs, sizes } = p;
  // Each document's count for the current a, 0 between two a's (the touched ones are reset): the
  // postings visit documents at random, and four bytes a document keep more of them in the cache
  // than a count beside a mark (15–20% faster at a million documents).
  const counts = new Uint32Array(Math.max(1, p.docs));
  const touched = new Uint32Array(Math.max(1, p.docs));
  const out = new PairBuffer(1 << 12);
  let distinct = 0;
  for (let a = p.from; a < p.to; a++) {
    if ((a & 0xfff) === 0) throwIfStopped(p.stop);
    let nt = 0;
    const end = docStart[a + 1] as number;
    for (let e = docStart[a] as number; e < end; e++) {
      const r = ranks[e] as number;
      if (r >= kept) break;
      // a is in its rank's postings (ascending): the documents after it follow it.
      let lo = postStart[r] as number;
      const hi = postStart[r + 1] as number;
      let h = hi;
      while (lo < h) {
        const mid = (lo + h) >>> 1;
        if ((postDocs[mid] as number) <= a) lo = mid + 1;
        else h = mid;
      }
      for (let q = lo; q < hi; q++) {
        const b = postDocs[q] as number;
        const c = counts[b] as number;
        if (c === 0) touched[nt++] = b;
        counts[b] = c + 1;
      }
    }
    if (nt === 0) continue;
    distinct += nt;
    touched.subarray(0, nt).sort();
    const sa = sizes[a] as number;
    for (let t = 0; t < nt; t++) {
      const b = touched[t] as number;
      const c = counts[b] as number;
      counts[b] = 0;
      // Same expression as `resemblance()` in sampling.ts and MR#2's scoreRange.
      const rr = c / (sa + (sizes[b] as number) - c);
      if (rr < p.floor) continue;
      out.push(a, b, rr);
    }
  }
  throwIfStopped(p.stop);
  return { ...out.result(), distinct };
}

export interface SctCountOptions {
  readonly fp: FingerprintRuns;
  readonly lists: RankLists;
  readonly threshold: number;
  readonly floor: number;
  readonly bufferRecords: number;
  readonly stop: Int32Array;
}

/**
 * SCT at `threshold` from `floor` up, out of core, by counting: MR#1's counters from the runs'
 * counts (its emissions counted, not made), the kept ranks' postings, then the count on the
 * worker threads, the ranges concatenated in order. The spilled join's pairs, scores and counters.
 */
export async function runSctCount(k: KernelContext, o: SctCountOptions): Promise<KernelResult> {
  const { fp, lists, threshold, floor, stop } = o;
  const { docs, sizes } = lists;
  const share = keptShare(fp, threshold);
  let fingerprints = 0;
  let empty = 0;
  for (let d = 0; d < docs; d++) {
    fingerprints += sizes[d] as number;
    if (sizes[d] === 0) empty++;
  }
  // MR#1's mapper counts documents and fingerprints for every document, the rest only when they happen.
  if (docs > 0) {
    k.count(MR1, 'documents', docs);
    k.count(MR1, 'fingerprints', fingerprints);
  }
  countIfAny(k, MR1, 'fingerprints_kept', fingerprints);
  countIfAny(k, MR1, 'documents_without_fingerprints', empty);
  countIfAny(k, MR1, 'fingerprints_over_sct', share.overSct);
  countIfAny(k, MR1, 'output_pairs', share.emissions);

  // The kept ranks' postings: a frequency's ranks are consecutive, each with that many documents.
  const starts = rankStarts(fp);
  const postStart = sharedU32(share.kept + 1);
  const frequencies = new Map<number, number>();
  for (const part of fp.partitions) part.frequencies.df.forEach((df, i) => frequencies.set(df, (frequencies.get(df) ?? 0) + (part.frequencies.groups[i] as number)));
  let rank = 0;
  for (const df of [...frequencies.keys()].sort((x, y) => x - y)) {
    if (df > threshold) break;
    for (let g = frequencies.get(df) as number; g > 0; g--, rank++) postStart[rank + 1] = (postStart[rank] as number) + df;
  }
  const postDocs = sharedU32(share.entries);
  k.progress('SCT postings (out of core)', 0, fp.partitions.length);
  let done = 0;
  await settleAll(
    fp.partitions.map(async (part, p) => {
      await k.runInWorker(externalSct.task('sctPostings'), {
        shared: part.shared,
        width: fp.width,
        df: part.frequencies.df.slice(),
        firstRank: starts.firstRanks[p] as Uint32Array,
        threshold,
        postStart,
        postDocs,
        bufferRecords: o.bufferRecords,
        stop,
      } satisfies SctPostingsPayload);
      k.progress('SCT postings (out of core)', ++done, fp.partitions.length);
    }),
  );
  k.signal.throwIfAborted();

  // A document's work is about its shared entries times the share of documents after it (the
  // postings are ascending); many more ranges than threads even out the rest.
  const { docStart, ids: ranks } = lists;
  const ranges = balancedRanges(docs, (d) => (((docStart[d + 1] as number) - (docStart[d] as number)) * (docs - d)) / docs, Math.max(1, k.parallelism * 8));
  done = 0;
  k.progress('SCT count (out of core)', 0, ranges.length);
  const parts = await settleAll(
    ranges.map(async ([from, to]) => {
      const r = await k.runInWorker(externalSct.task('sctJoin'), { docStart, ranks, kept: share.kept, postStart, postDocs, sizes, docs, floor, from, to, stop } satisfies SctJoinPayload);
      k.progress('SCT count (out of core)', ++done, ranges.length);
      return r;
    }),
  );
  k.signal.throwIfAborted();
  const pairs = concatPairs(parts);
  countIfAny(k, MR2, 'distinct_pairs', parts.reduce((s, r) => s + r.distinct, 0));
  countIfAny(k, MR2, 'output_pairs', pairs.a.length);
  return { pairs };
}
