/**
 * The ground truth out of core (Broder without sampling, from a floor up) by prefix and length
 * filtering, as `kernel.ts` does in memory (prefix-join.ts), instead of the spilled full join of
 * `external.ts`, whose cost is MR#1's emissions (d² pairs for a shingle in d documents).
 *
 * From the merged fingerprint runs (`fingerprint-runs.ts`), which already say each document's
 * count of shared fingerprints and how many fingerprints each document frequency has:
 *   1. each fingerprint held by two documents or more gets a rank in the order (document
 *      frequency, fingerprint), rarest first, and each document the ascending list of its ranks
 *      (`rankLists`: one read of the shared records, 4 bytes a shared entry in memory). The
 *      fingerprints of one document change no pair's overlap, only the sizes, which the runs
 *      hold; they are the rarest, so they come first in every document's order.
 *   2. MR#2's `distinct_pairs` counted from the ranks' postings (`countSharedPairs`, one rank
 *      of each set held by the same documents: `distinctPostings`), which are then dropped;
 *   3. the prefix index over the heads of the lists, and the prefix join on the worker threads,
 *      each candidate verified by merging the two lists with the full join's own expression.
 * The lists stay cached for the scorer (kernel.ts `exactScorer`), 4 bytes a shared entry. The
 * index needs about three words a shared entry at its peak, computed before anything is made:
 * when that does not fit the budget, `external.ts` runs the full join instead, from the floor.
 */
import { concatPairs, countIfAny, type KernelContext, type KernelResult } from '../../contract/index.ts';
import { invertLists } from '../../kernels/postings.ts';
import { workerModule } from '../../contract/tasks.ts';
import { balancedRanges, settleAll, sharedU32 } from '../text/chunks.ts';
import { forEachSharedFingerprint, type FingerprintRuns } from '../text/fingerprint-runs.ts';
import { throwIfStopped, type RunPart } from '../text/sorted-runs.ts';
import { MR1, MR2 } from './jobs.ts';
import { countSharedPairs, distinctPostings, NO_NEXT, prefixJoin, prefixLength, sharingLists, type IdLists, type PrefixIndex, type PrefixJoinPayload, type SharingPayload } from './prefix-join.ts';
import { pairsOf } from './sampling.ts';
import type * as ExternalPrefix from './external-prefix.ts';

export const externalPrefix = workerModule<typeof ExternalPrefix>(new URL('./external-prefix.ts', import.meta.url).href);

/** Every document's shared fingerprints as ranks (rarest first), ascending, with the documents' full sizes. */
export interface RankLists extends IdLists {
  readonly docs: number;
  readonly sizes: Uint32Array;
  /** fingerprints held by two documents or more: the ranks are 0 .. ranks-1 */
  readonly ranks: number;
}

/** What the rank lists hold, in bytes, from the runs' counts (before they are made): a shared entry's rank, and each document's start. */
export function listsBytes(fp: FingerprintRuns): number {
  let entries = 0;
  for (const part of fp.partitions) entries += part.shared.to - part.shared.from;
  return 4 * entries + 4 * (fp.docs + 1);
}

/** What the rank lists and the join's peak hold, in bytes, from the runs' counts (before anything is made). */
export function prefixJoinBytes(fp: FingerprintRuns, threads: number): number {
  let entries = 0;
  let ranks = 0;
  for (const part of fp.partitions) {
    entries += part.shared.to - part.shared.from;
    for (const g of part.frequencies.groups) ranks += g;
  }
  // The lists; then either the postings (count) or the prefix positions, lists and starts
  // (join), the prefix ends; and each thread's two marks a document.
  return 4 * entries + (8 * entries + 4 * (ranks + 1)) + 4 * (fp.docs + 1) * (3 + 2 * Math.max(1, threads));
}

export interface RankPartitionPayload {
  readonly shared: RunPart;
  readonly width: 2 | 4;
  /** the partition's document frequencies, ascending, and the first rank of each in this partition */
  readonly df: Uint32Array;
  readonly firstRank: Uint32Array;
  /** where this partition's ranks of each document go in `ranks` (copied: the task moves them on) */
  readonly at: Uint32Array;
  readonly ranks: Uint32Array;
  readonly bufferRecords: number;
  readonly stop?: Int32Array;
}

/**
 * Runs in a worker thread: one read of a partition's shared records, fingerprint by fingerprint
 * (the fingerprints in ascending order, each one's documents ascending): its rank is the next
 * of its document frequency's in this partition, written into each of its documents' lists.
 */
export function rankPartition(p: RankPartitionPayload): void {
  const { width, ranks, at } = p;
  const next = new Map<number, number>();
  p.df.forEach((df, i) => next.set(df, p.firstRank[i] as number));
  forEachSharedFingerprint(p.shared, { width, bufferRecords: p.bufferRecords, stop: p.stop }, (_fp, group, size) => {
    const rank = next.get(size);
    if (rank === undefined) throw new Error(`${p.shared.path}: a fingerprint held by ${size} documents, which the partition's counts do not have`);
    next.set(size, rank + 1);
    for (let i = 0; i < size; i++) {
      const d = group[i] as number;
      ranks[at[d] as number] = rank;
      at[d] = (at[d] as number) + 1;
    }
  });
}

export interface SortListsPayload {
  readonly docStart: Uint32Array;
  readonly ranks: Uint32Array;
  readonly from: number;
  readonly to: number;
  readonly stop?: Int32Array;
}

/** Runs in a worker thread: sorts the lists of the documents [from, to) in place. */
export function sortLists(p: SortListsPayload): void {
  for (let d = p.from; d < p.to; d++) {
    if ((d & 0xfff) === 0) throwIfStopped(p.stop);
    const s = p.docStart[d] as number;
    const e = p.docStart[d + 1] as number;
    if (e - s > 1) p.ranks.subarray(s, e).sort();
  }
}

/** Where the ranks of each document frequency of each partition start, and how many ranks there are (fingerprints held by two documents or more). */
export interface RankStarts {
  /** `firstRanks[p][i]`: the first rank of partition p's fingerprints of frequency `frequencies.df[i]` */
  readonly firstRanks: readonly Uint32Array[];
  readonly ranks: number;
}

/** The ranks in the order (document frequency, partition, fingerprint): rarest first, and within a frequency, as the partitions hold the fingerprints. */
export function rankStarts(fp: FingerprintRuns): RankStarts {
  const dfs = [...new Set(fp.partitions.flatMap((part) => [...part.frequencies.df]))].sort((x, y) => x - y);
  const firstRanks = fp.partitions.map((part) => new Uint32Array(part.frequencies.df.length));
  const place = fp.partitions.map((part) => new Map([...part.frequencies.df].map((df, i) => [df, i])));
  let rank = 0;
  for (const df of dfs) {
    fp.partitions.forEach((part, p) => {
      const i = place[p]?.get(df);
      if (i === undefined) return;
      (firstRanks[p] as Uint32Array)[i] = rank;
      rank += part.frequencies.groups[i] as number;
    });
  }
  return { firstRanks, ranks: rank };
}

/**
 * The rank lists of the merged runs, on the worker threads: each partition's ranks of a
 * document frequency follow those of the partitions before it (partitions hold ascending
 * ranges of fingerprints), so the ranks are the order (document frequency, fingerprint).
 */
export async function rankLists(k: KernelContext, fp: FingerprintRuns, o: { readonly bufferRecords: number; readonly stop?: Int32Array }): Promise<RankLists> {
  const docs = fp.docs;
  const docStart = sharedU32(docs + 1);
  for (let d = 0; d < docs; d++) {
    let h = 0;
    for (const part of fp.partitions) h += part.sharedCounts[d] as number;
    docStart[d + 1] = (docStart[d] as number) + h;
  }
  const entries = docStart[docs] as number;
  if (!Number.isSafeInteger(entries) || entries >= 2 ** 32) throw new Error(`broder: ${entries} shared fingerprint entries, more than the out-of-core join's 2^32`);
  const { firstRanks, ranks: rank } = rankStarts(fp);
  const ranks = sharedU32(entries);
  const at = docStart.slice(0, docs);
  k.progress('rank lists (out of core)', 0, fp.partitions.length + 1);
  let done = 0;
  const tasks = fp.partitions.map((part, p) => {
    const mine = at.slice();
    for (let d = 0; d < docs; d++) at[d] = (at[d] as number) + (part.sharedCounts[d] as number);
    return k
      .runInWorker(externalPrefix.task('rankPartition'), {
        shared: part.shared,
        width: fp.width,
        df: part.frequencies.df.slice(),
        firstRank: firstRanks[p] as Uint32Array,
        at: mine,
        ranks,
        bufferRecords: o.bufferRecords,
        ...(o.stop ? { stop: o.stop } : {}),
      } satisfies RankPartitionPayload)
      .then(() => k.progress('rank lists (out of core)', ++done, fp.partitions.length + 1));
  });
  await settleAll(tasks);
  const ranges = balancedRanges(docs, (d) => (docStart[d + 1] as number) - (docStart[d] as number) + 1, Math.max(1, k.parallelism * 2));
  await settleAll(ranges.map(([from, to]) => k.runInWorker(externalPrefix.task('sortLists'), { docStart, ranks, from, to, ...(o.stop ? { stop: o.stop } : {}) } satisfies SortListsPayload)));
  k.progress('rank lists (out of core)', ++done, fp.partitions.length + 1);
  return { docs, sizes: fp.sizes, docStart, ids: ranks, ranks: rank };
}

/**
 * The prefix index over the heads of the rank lists: a document of size s with u fingerprints
 * of its own has them first in the order, so its prefix of prefixLength(s) entries holds
 * prefixLength(s) − u of its ranks (none when its own fill the prefix).
 *
 * Made on the worker threads, each owning a range of ranks (`countPrefixRanks`, then
 * `fillPrefixRanks`): its lists, their places and each document's probing work over them. Every
 * task reads every prefix, but writes only at its own ranks, at random: a thread's share of the
 * random writes, which were this step's cost on the main thread (14.7 s of it at a million
 * documents), and of the arrays they land in.
 */
export async function rankPrefixIndex(k: KernelContext, l: RankLists, floor: number): Promise<PrefixIndex> {
  const { docs, docStart, ids: ranks, sizes } = l;
  const prefixEnd = sharedU32(docs);
  for (let d = 0; d < docs; d++) {
    const s = docStart[d] as number;
    const h = (docStart[d + 1] as number) - s;
    const own = (sizes[d] as number) - h;
    prefixEnd[d] = s + Math.max(0, Math.min(h, prefixLength(sizes[d] as number, floor) - own));
  }
  const rankRanges = prefixRankRanges(l, prefixEnd, Math.max(1, k.parallelism * 2));
  const listStart = sharedU32(l.ranks + 1);
  await settleAll(rankRanges.map(([from, to]) => k.runInWorker(externalPrefix.task('countPrefixRanks'), { docStart, prefixEnd, ranks, listStart, from, to, docs } satisfies PrefixRanksPayload)));
  for (let r = 0; r < l.ranks; r++) listStart[r + 1] = (listStart[r + 1] as number) + (listStart[r] as number);
  const listDocs = sharedU32(listStart[l.ranks] as number);
  const prefixNext = sharedU32(ranks.length);
  const works = await settleAll(rankRanges.map(([from, to]) => k.runInWorker(externalPrefix.task('fillPrefixRanks'), { docStart, prefixEnd, ranks, listStart, listDocs, prefixNext, from, to, docs } satisfies FillPrefixRanksPayload)));
  const work = new Float64Array(docs);
  for (const w of works) for (let d = 0; d < docs; d++) work[d] = (work[d] as number) + (w[d] as number);
  return { docs, prefixStart: docStart, prefixEnd, prefixNext, listDocs, work };
}

/**
 * Ranges of ranks holding about equal shares of the prefixes' entries, estimated from every
 * 64th document's prefix (the rarest ranks fill the prefixes: equal ranges of ranks would not do).
 */
function prefixRankRanges(l: RankLists, prefixEnd: Uint32Array, chunks: number): [number, number][] {
  const BUCKETS = 1024;
  const width = Math.max(1, Math.ceil(l.ranks / BUCKETS));
  const seen = new Float64Array(BUCKETS);
  for (let d = 0; d < l.docs; d += 64) for (let e = l.docStart[d] as number; e < (prefixEnd[d] as number); e++) seen[Math.floor((l.ids[e] as number) / width)]!++;
  return balancedRanges(BUCKETS, (b) => (seen[b] as number) * 64, chunks)
    .map(([from, to]): [number, number] => [Math.min(l.ranks, from * width), Math.min(l.ranks, to * width)])
    .filter(([from, to]) => to > from)
    .map(([from, to], i, all) => [from, i === all.length - 1 ? l.ranks : to]);
}

export interface PrefixRanksPayload {
  readonly docStart: Uint32Array;
  readonly prefixEnd: Uint32Array;
  readonly ranks: Uint32Array;
  /** counts (`countPrefixRanks` adds to `listStart[r + 1]`), then where each rank's list starts */
  readonly listStart: Uint32Array;
  /** the ranks this task owns */
  readonly from: number;
  readonly to: number;
  readonly docs: number;
}

/** Runs in a worker thread: for each rank of [from, to), the prefixes holding it, into `listStart[r + 1]`. */
export function countPrefixRanks(p: PrefixRanksPayload): void {
  const { docStart, prefixEnd, ranks, listStart, from, to } = p;
  for (let d = 0; d < p.docs; d++) {
    const end = prefixEnd[d] as number;
    for (let e = docStart[d] as number; e < end; e++) {
      const r = ranks[e] as number;
      // A prefix is ascending: past the range, nothing more of it is this task's.
      if (r >= to) break;
      if (r >= from) listStart[r + 1]!++;
    }
  }
}

export interface FillPrefixRanksPayload extends PrefixRanksPayload {
  readonly listDocs: Uint32Array;
  readonly prefixNext: Uint32Array;
}

/**
 * Runs in a worker thread: the lists of the ranks [from, to) and the places of their prefix
 * entries (a list of c documents keeps the c − 1 after its first, then NO_NEXT: placeList), and
 * each document's probing work over these ranks.
 */
export function fillPrefixRanks(p: FillPrefixRanksPayload): Float64Array {
  const { docStart, prefixEnd, ranks, listStart, listDocs, prefixNext, from, to } = p;
  const fill = new Uint32Array(Math.max(1, to - from));
  const work = new Float64Array(Math.max(1, p.docs));
  for (let d = 0; d < p.docs; d++) {
    let w = 0;
    const end = prefixEnd[d] as number;
    for (let e = docStart[d] as number; e < end; e++) {
      const r = ranks[e] as number;
      if (r >= to) break;
      if (r < from) continue;
      const base = listStart[r] as number;
      const c = (listStart[r + 1] as number) - base;
      const i = fill[r - from] as number;
      fill[r - from] = i + 1;
      if (i > 0) listDocs[base + i - 1] = d;
      if (i === c - 1) {
        prefixNext[e] = NO_NEXT;
        listDocs[base + i] = NO_NEXT;
      } else {
        prefixNext[e] = base + i;
        w += c - 1 - i;
      }
    }
    work[d] = w;
  }
  return work;
}

export interface RankPrefixJoinOptions {
  readonly fp: FingerprintRuns;
  readonly lists: RankLists;
  readonly floor: number;
  readonly stop: Int32Array;
  /** MR#2's `distinct_pairs`, or not (a ground truth that skips it: sampling.ts `countsDistinctPairs`) */
  readonly countDistinct: boolean;
}

/**
 * The ground truth from `floor` up, out of core: MR#1's counters from the runs' counts (its
 * pairs counted, not made), `distinct_pairs` from the ranks' postings unless skipped, the pairs
 * by the prefix join. The same pairs, scores and counters as the spilled full join.
 */
export async function runRankPrefixJoin(k: KernelContext, o: RankPrefixJoinOptions): Promise<KernelResult> {
  const { fp, lists, floor, stop } = o;
  const { docs, sizes, docStart, ids: ranks } = lists;
  let fingerprints = 0;
  let empty = 0;
  for (let d = 0; d < docs; d++) {
    fingerprints += sizes[d] as number;
    if (sizes[d] === 0) empty++;
  }
  let emissions = 0;
  for (const part of fp.partitions) part.frequencies.df.forEach((df, i) => (emissions += (part.frequencies.groups[i] as number) * pairsOf(df)));
  // MR#1's mapper counts documents and fingerprints for every document, the rest only when they happen.
  if (docs > 0) {
    k.count(MR1, 'documents', docs);
    k.count(MR1, 'fingerprints', fingerprints);
  }
  countIfAny(k, MR1, 'fingerprints_kept', fingerprints);
  countIfAny(k, MR1, 'documents_without_fingerprints', empty);
  countIfAny(k, MR1, 'output_pairs', emissions);

  const chunks = Math.max(1, k.parallelism * 4);
  const distinct = o.countDistinct ? await countDistinct(k, lists, chunks, stop) : 0;
  k.signal.throwIfAborted();

  k.progress('prefix index (out of core)');
  const { work, ...index } = await rankPrefixIndex(k, lists, floor);
  const ranges = balancedRanges(docs, (d) => work[d] as number, chunks);
  let done = 0;
  k.progress('prefix join (out of core)', 0, ranges.length);
  const parts = await settleAll(
    ranges.map(async ([from, to]) => {
      const r = await k.runInWorker(externalPrefix.task('prefixJoin'), { index, docStart, ids: ranks, sizes, floor, from, to } satisfies PrefixJoinPayload);
      k.progress('prefix join (out of core)', ++done, ranges.length);
      return r;
    }),
  );
  k.signal.throwIfAborted();
  const pairs = concatPairs(parts);
  countIfAny(k, MR2, 'distinct_pairs', distinct);
  countIfAny(k, MR2, 'output_pairs', pairs.a.length);
  return { pairs };
}

/** MR#2's `distinct_pairs`: the pairs sharing a rank, counted along the ranks' postings (made here, dropped after). */
async function countDistinct(k: KernelContext, lists: RankLists, chunks: number, stop: Int32Array): Promise<number> {
  const { docs, docStart, ids: ranks } = lists;
  k.progress('shared pairs (out of core)');
  const postings = invertLists({ keys: lists.ranks, entries: ranks, listStart: docStart, allocate: sharedU32 });
  throwIfStopped(stop);
  // A document's steps are its postings after it: about its postings' lengths times the share of
  // documents after it (the postings are ascending), which balances the ranges without a search.
  const { start } = postings;
  const walked = sharingLists({ postStart: start, postDocs: postings.lists, docs, walk: distinctPostings(start, postings.lists, lists.ranks) });
  throwIfStopped(stop);
  const work = new Float64Array(docs);
  for (let d = 0; d < docs; d++) {
    let w = 0;
    for (let e = walked.docStart[d] as number; e < (walked.docStart[d + 1] as number); e++) {
      const r = walked.ids[e] as number;
      w += (start[r + 1] as number) - (start[r] as number) - (walked.entryPos[e] as number) - 1;
    }
    work[d] = w;
  }
  const ranges = balancedRanges(docs, (d) => work[d] as number, chunks);
  const counts = await settleAll(
    ranges.map(([from, to]) => k.runInWorker(externalPrefix.task('countSharedPairs'), { ...walked, postStart: start, postDocs: postings.lists, docs, from, to } satisfies SharingPayload)),
  );
  return counts.reduce((s, n) => s + n, 0);
}

// The prefix join's and the count's tasks, from this module's worker (prefix-join.ts holds them).
export { countSharedPairs, prefixJoin };
