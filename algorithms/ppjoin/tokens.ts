/**
 * The join's tokens in the kernel: each document's distinct shingle fingerprints (exactly Broder's
 * sets, `algorithms/text/fingerprint.ts`), numbered and put in the global order.
 *
 * The global order is ascending document frequency; ties go by the token's partition (the top
 * byte of a hash of its fingerprint, `tokenPartition`), then by first occurrence (the first
 * document holding it, then its place among that document's distinct tokens in text order).
 * PPJoin only asks for a global order (Xiao et al.); this one is what a hash table numbers for
 * free: worker threads fingerprint slices of the corpus and group each slice's distinct tokens
 * by partition (`tokenizeSlice`), then each worker numbers a range of partitions across all
 * slices with a hash table small enough to stay in cache (`numberPartitions`): token ids come
 * out in (partition, first occurrence) order, and a stable counting sort by frequency gives the
 * ranks (`rankTokens`). A fingerprint-ordered dictionary (Broder's `features.ts`) costs a radix
 * sort and a merge instead. The first text job knows the same three keys of every token from its
 * reducer's values, so jobs and kernel agree on the order (`jobs.ts`, `tokenText`).
 */
import { sharedU32 } from '../text/chunks.ts';
import { shingleFingerprints } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import type { FingerprintKind, ShingleSpec } from '../text/params.ts';
import { addToSignature } from './signature.ts';

export interface TokenizePayload {
  readonly texts: readonly string[];
  readonly shingle: ShingleSpec;
  readonly kind: FingerprintKind;
}

const PARTITION_BITS = 8;
export const PARTITIONS = 1 << PARTITION_BITS;

/** A hash of a fingerprint's 32-bit words (most significant first). */
export function hashKey(data: Uint32Array, at: number, width: number): number {
  let h = 0x811c9dc5;
  for (let w = 0; w < width; w++) {
    h = Math.imul(h ^ (data[at + w] as number), 0x9e3779b1);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The partition of a token with hash h: the second key of the global order. */
export function tokenPartition(h: number): number {
  return h >>> (32 - PARTITION_BITS);
}

function sameKey(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): boolean {
  for (let w = 0; w < width; w++) if (a[i + w] !== b[j + w]) return false;
  return true;
}

/**
 * One slice's documents as their distinct fingerprints, in text order of first occurrence; all
 * arrays on SharedArrayBuffers, so the numbering workers read them without copies.
 */
export interface TokenSlice {
  readonly docs: number;
  readonly width: 2 | 4;
  /** CSR over the slice's documents: entries docStart[d] .. docStart[d+1] */
  readonly docStart: Uint32Array;
  /** the last 32-bit word of each entry's fingerprint, in entry order (signature bits) */
  readonly lowWords: Uint32Array;
  /**
   * The entries grouped by partition, in entry order within each: the k-th of the slice's
   * grouped entries is entry partEntries[k], with fingerprint partKeys[k·width ..] (most
   * significant word first) and hash partHashes[k]; partition p is [partStart[p], partStart[p+1]).
   * Grouped copies, so that numbering reads them in sequence.
   */
  readonly partStart: Uint32Array;
  readonly partEntries: Uint32Array;
  readonly partKeys: Uint32Array;
  readonly partHashes: Uint32Array;
}

/** A reusable open-addressing set of fingerprints with generation stamps (no clearing per document). */
class FingerprintSet {
  private slots = new Uint32Array(0);
  private stamp = new Uint32Array(0);
  private generation = 0;
  private mask = 0;

  /** Starts a new, empty set able to hold `n` fingerprints. */
  reset(n: number): void {
    let cap = 64;
    while (cap < 2 * n) cap *= 2;
    if (cap > this.stamp.length) {
      this.slots = new Uint32Array(cap);
      this.stamp = new Uint32Array(cap);
      this.generation = 0;
    }
    this.mask = cap - 1;
    this.generation++;
  }

  /** Adds entry i of `data` with hash h; false when an equal fingerprint is in already. */
  add(data: Uint32Array, i: number, width: number, h: number): boolean {
    let slot = h & this.mask;
    for (;;) {
      if (this.stamp[slot] !== this.generation) {
        this.stamp[slot] = this.generation;
        this.slots[slot] = i;
        return true;
      }
      if (sameKey(data, (this.slots[slot] as number) * width, data, i * width, width)) return false;
      slot = (slot + 1) & this.mask;
    }
  }
}

/** Runs in a worker thread: normalizes, fingerprints and de-duplicates one slice's documents. */
export function tokenizeSlice(p: TokenizePayload): TokenSlice {
  const width: 2 | 4 = p.kind === 'md5' ? 4 : 2;
  const seen = new FingerprintSet();
  const docStart = sharedU32(p.texts.length + 1);
  let keys = new Uint32Array(1 << 16);
  let hashes = new Uint32Array(1 << 15);
  let n = 0;
  for (let d = 0; d < p.texts.length; d++) {
    const fps = shingleFingerprints(normalize(p.texts[d] as string), p.shingle, p.kind);
    if (hashes.length < n + fps.count) {
      const size = Math.max(hashes.length * 2, n + fps.count);
      const k2 = new Uint32Array(size * width);
      k2.set(keys.subarray(0, n * width));
      keys = k2;
      const h2 = new Uint32Array(size);
      h2.set(hashes.subarray(0, n));
      hashes = h2;
    }
    seen.reset(fps.count);
    for (let i = 0; i < fps.count; i++) {
      const h = hashKey(fps.data, i * width, width);
      if (!seen.add(fps.data, i, width, h)) continue;
      for (let w = 0; w < width; w++) keys[n * width + w] = fps.data[i * width + w] as number;
      hashes[n++] = h;
    }
    docStart[d + 1] = n;
  }
  const partStart = sharedU32(PARTITIONS + 1);
  for (let e = 0; e < n; e++) {
    const part = tokenPartition(hashes[e] as number);
    partStart[part + 1] = (partStart[part + 1] as number) + 1;
  }
  for (let q = 0; q < PARTITIONS; q++) partStart[q + 1] = (partStart[q + 1] as number) + (partStart[q] as number);
  const fill = partStart.slice(0, PARTITIONS);
  const partEntries = sharedU32(n);
  const partKeys = sharedU32(n * width);
  const partHashes = sharedU32(n);
  const lowWords = sharedU32(n);
  for (let e = 0; e < n; e++) {
    const h = hashes[e] as number;
    const part = tokenPartition(h);
    const at = fill[part] as number;
    fill[part] = at + 1;
    partEntries[at] = e;
    partHashes[at] = h;
    for (let w = 0; w < width; w++) partKeys[at * width + w] = keys[e * width + w] as number;
    lowWords[e] = keys[e * width + width - 1] as number;
  }
  return { docs: p.texts.length, width, docStart, lowWords, partStart, partEntries, partKeys, partHashes };
}

export interface NumberPayload {
  readonly slices: readonly TokenSlice[];
  /** corpus index of each slice's first entry */
  readonly sliceEntries: readonly number[];
  /** number the partitions [from, to) */
  readonly from: number;
  readonly to: number;
  /** written: each entry's token, numbered from 0 within this range of partitions */
  readonly tokenOf: Uint32Array;
}

/** A range of partitions numbered: its tokens' document frequencies, in id order. */
export interface NumberedRange {
  readonly df: Uint32Array;
}

/**
 * Runs in a worker thread: numbers the tokens of partitions [from, to) across all slices, in
 * (partition, first occurrence) order, writing each entry's token id into the shared `tokenOf`.
 * A partition's tokens fit a small hash table that stays in cache, where one table for the whole
 * corpus (tens of megabytes) costs a cache and TLB miss per entry, four times slower here.
 */
export function numberPartitions(p: NumberPayload): NumberedRange {
  const width = p.slices[0]?.width ?? 2;
  const stride = width + 2;
  let largest = 0;
  let total = 0;
  for (let part = p.from; part < p.to; part++) {
    let size = 0;
    for (const s of p.slices) size += (s.partStart[part + 1] as number) - (s.partStart[part] as number);
    largest = Math.max(largest, size);
    total += size;
  }
  let cap = 64;
  while (cap < 2 * largest) cap *= 2;
  const mask = cap - 1;
  // Slot: key words, token, generation stamp (the partition's number + 1).
  const table = new Uint32Array(cap * stride);
  const df = new Uint32Array(Math.max(1, total));
  let tokens = 0;
  for (let part = p.from; part < p.to; part++) {
    const generation = part + 1;
    for (let si = 0; si < p.slices.length; si++) {
      const s = p.slices[si] as TokenSlice;
      const offset = p.sliceEntries[si] as number;
      const keys = s.partKeys;
      for (let q = s.partStart[part] as number; q < (s.partStart[part + 1] as number); q++) {
        const at = q * width;
        let slot = (s.partHashes[q] as number) & mask;
        let t: number;
        for (;;) {
          const base = slot * stride;
          if (table[base + width + 1] !== generation) {
            for (let w = 0; w < width; w++) table[base + w] = keys[at + w] as number;
            t = tokens++;
            table[base + width] = t;
            table[base + width + 1] = generation;
            break;
          }
          if (sameKey(table, base, keys, at, width)) {
            t = table[base + width] as number;
            break;
          }
          slot = (slot + 1) & mask;
        }
        df[t] = (df[t] as number) + 1;
        p.tokenOf[offset + (s.partEntries[q] as number)] = t;
      }
    }
  }
  return { df: df.slice(0, tokens) };
}

/** The corpus's tokens, numbered in (partition, first occurrence) order. */
export interface NumberedTokens {
  readonly docs: number;
  readonly width: 2 | 4;
  /** number of distinct tokens */
  readonly distinct: number;
  /** CSR over documents: the token ids of d are ids[docStart[d] .. docStart[d+1]) */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  /** documents holding each token */
  readonly df: Uint32Array;
  /** the last 32-bit word of each entry's fingerprint (signature bits) */
  readonly lowWords: Uint32Array;
}

type RunInWorker = <T>(moduleUrl: string, exportName: string, payload: unknown) => Promise<T>;

export const TOKENS_MODULE = new URL('./tokens.ts', import.meta.url).href;

interface NumberingPlan {
  readonly docs: number;
  readonly entries: number;
  readonly docStart: Uint32Array;
  readonly sliceEntries: number[];
  readonly tokenOf: Uint32Array;
  readonly ranges: [number, number][];
}

function numberingPlan(slices: readonly TokenSlice[], parallelism: number): NumberingPlan {
  const docs = slices.reduce((s, x) => s + x.docs, 0);
  const sliceEntries: number[] = [];
  let entries = 0;
  const docStart = sharedU32(docs + 1);
  let d = 0;
  for (const s of slices) {
    sliceEntries.push(entries);
    for (let k = 0; k < s.docs; k++) docStart[++d] = entries + (s.docStart[k + 1] as number);
    entries += s.lowWords.length;
  }
  return { docs, entries, docStart, sliceEntries, tokenOf: sharedU32(entries), ranges: partitionRanges(slices, Math.max(1, parallelism)) };
}

/**
 * Numbers the slices' tokens across the corpus (slices in corpus order) on `parallelism`
 * threads, each taking a contiguous range of partitions: ids of a later range follow those of
 * an earlier one, so the order stays (partition, first occurrence).
 */
export async function numberTokens(slices: readonly TokenSlice[], parallelism: number, run: RunInWorker): Promise<NumberedTokens> {
  const plan = numberingPlan(slices, parallelism);
  const { sliceEntries, tokenOf } = plan;
  const parts = await Promise.all(
    plan.ranges.map(([from, to]) => run<NumberedRange>(TOKENS_MODULE, 'numberPartitions', { slices, sliceEntries, from, to, tokenOf })),
  );
  return assemble(slices, plan, parts);
}

/** `numberTokens` on the calling thread. */
export function numberTokensHere(slices: readonly TokenSlice[]): NumberedTokens {
  const plan = numberingPlan(slices, 1);
  const { sliceEntries, tokenOf } = plan;
  return assemble(slices, plan, plan.ranges.map(([from, to]) => numberPartitions({ slices, sliceEntries, from, to, tokenOf })));
}

function assemble(slices: readonly TokenSlice[], plan: NumberingPlan, parts: readonly NumberedRange[]): NumberedTokens {
  const { sliceEntries, tokenOf, ranges } = plan;
  // Ids of range r start after the tokens of the earlier ranges.
  const base: number[] = [];
  let distinct = 0;
  for (const r of parts) {
    base.push(distinct);
    distinct += r.df.length;
  }
  const df = new Uint32Array(distinct);
  parts.forEach((r, i) => df.set(r.df, base[i]));
  if (parts.length > 1) {
    const rangeOf = new Uint8Array(PARTITIONS);
    ranges.forEach(([from, to], i) => rangeOf.fill(i, from, to));
    for (let si = 0; si < slices.length; si++) {
      const s = slices[si] as TokenSlice;
      const offset = sliceEntries[si] as number;
      for (let part = 0; part < PARTITIONS; part++) {
        const add = base[rangeOf[part] as number] as number;
        if (add === 0) continue;
        for (let q = s.partStart[part] as number; q < (s.partStart[part + 1] as number); q++) {
          const e = offset + (s.partEntries[q] as number);
          tokenOf[e] = (tokenOf[e] as number) + add;
        }
      }
    }
  }
  const lowWords = sharedU32(plan.entries);
  slices.forEach((s, si) => lowWords.set(s.lowWords, sliceEntries[si]));
  return { docs: plan.docs, width: slices[0]?.width ?? 2, distinct, docStart: plan.docStart, ids: tokenOf, df, lowWords };
}

/** Contiguous ranges of partitions of about equal numbers of entries, one per thread. */
function partitionRanges(slices: readonly TokenSlice[], chunks: number): [number, number][] {
  const sizes = new Float64Array(PARTITIONS);
  let total = 0;
  for (const s of slices) {
    for (let part = 0; part < PARTITIONS; part++) sizes[part] = (sizes[part] as number) + (s.partStart[part + 1] as number) - (s.partStart[part] as number);
  }
  for (const v of sizes) total += v;
  const ranges: [number, number][] = [];
  let from = 0;
  let acc = 0;
  for (let part = 0; part < PARTITIONS; part++) {
    acc += sizes[part] as number;
    if (acc >= (total * (ranges.length + 1)) / chunks && ranges.length < chunks - 1) {
      ranges.push([from, part + 1]);
      from = part + 1;
    }
  }
  ranges.push([from, PARTITIONS]);
  return ranges;
}

/** Each document's tokens as ascending ranks of the global order. */
export interface RankedSets {
  readonly docs: number;
  readonly distinct: number;
  readonly docStart: Uint32Array;
  readonly ranks: Uint32Array;
}

/** The rank of every token id: a stable counting sort of the ids by document frequency. */
export function rankOfTokens(t: NumberedTokens): Uint32Array {
  const F = t.distinct;
  let maxDf = 0;
  for (let id = 0; id < F; id++) maxDf = Math.max(maxDf, t.df[id] as number);
  const next = new Uint32Array(maxDf + 2);
  for (let id = 0; id < F; id++) next[(t.df[id] as number) + 1] = (next[(t.df[id] as number) + 1] as number) + 1;
  for (let f = 1; f <= maxDf + 1; f++) next[f] = (next[f] as number) + (next[f - 1] as number);
  const rankOf = sharedU32(F);
  for (let id = 0; id < F; id++) {
    const df = t.df[id] as number;
    rankOf[id] = next[df] as number;
    next[df] = (next[df] as number) + 1;
  }
  return rankOf;
}

export interface RankPayload {
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  readonly rankOf: Uint32Array;
  /** written: the ranks of documents [from, to), ascending within each */
  readonly ranks: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/** Runs in a worker thread: documents [from, to) as their tokens' ranks, each sorted. */
export function rankDocuments(p: RankPayload): void {
  const start = p.docStart[p.from] as number;
  const end = p.docStart[p.to] as number;
  for (let e = start; e < end; e++) p.ranks[e] = p.rankOf[p.ids[e] as number] as number;
  for (let d = p.from; d < p.to; d++) p.ranks.subarray(p.docStart[d], p.docStart[d + 1]).sort();
}

/** Ranks on `parallelism` threads, each sorting a contiguous range of documents of about equal size. */
export async function rankTokens(t: NumberedTokens, parallelism: number, run: RunInWorker): Promise<RankedSets> {
  const rankOf = rankOfTokens(t);
  const ranks = sharedU32(t.ids.length);
  const ranges = entryRanges(t.docStart, t.docs, Math.max(1, parallelism));
  await Promise.all(ranges.map(([from, to]) => run<void>(TOKENS_MODULE, 'rankDocuments', { docStart: t.docStart, ids: t.ids, rankOf, ranks, from, to })));
  return { docs: t.docs, distinct: t.distinct, docStart: t.docStart, ranks };
}

/** `rankTokens` on the calling thread. */
export function rankTokensHere(t: NumberedTokens): RankedSets {
  const ranks = sharedU32(t.ids.length);
  rankDocuments({ docStart: t.docStart, ids: t.ids, rankOf: rankOfTokens(t), ranks, from: 0, to: t.docs });
  return { docs: t.docs, distinct: t.distinct, docStart: t.docStart, ranks };
}

/** Contiguous document ranges holding about equal numbers of entries. */
function entryRanges(docStart: Uint32Array, docs: number, chunks: number): [number, number][] {
  const total = docStart[docs] as number;
  const ranges: [number, number][] = [];
  let from = 0;
  for (let d = 0; d < docs; d++) {
    if ((docStart[d + 1] as number) >= (total * (ranges.length + 1)) / chunks && ranges.length < chunks - 1) {
      ranges.push([from, d + 1]);
      from = d + 1;
    }
  }
  ranges.push([from, docs]);
  return ranges;
}

export interface SignaturePayload {
  readonly docStart: Uint32Array;
  readonly lowWords: Uint32Array;
  readonly words: number;
  /** written: `words` words per document */
  readonly signatures: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/** Runs in a worker thread: the signature bitmaps of documents [from, to), from their fingerprints' last words. */
export function signDocuments(p: SignaturePayload): void {
  const bits = 32 * p.words;
  for (let d = p.from; d < p.to; d++) {
    for (let e = p.docStart[d] as number; e < (p.docStart[d + 1] as number); e++) addToSignature(p.signatures, d * p.words, p.lowWords[e] as number, bits);
  }
}

/** Every document's signature bitmap, `words` 32-bit words each, on `parallelism` threads. */
export async function signatures(t: NumberedTokens, words: number, parallelism: number, run: RunInWorker): Promise<Uint32Array> {
  const sig = sharedU32(t.docs * words);
  const ranges = entryRanges(t.docStart, t.docs, Math.max(1, parallelism));
  await Promise.all(
    ranges.map(([from, to]) => run<void>(TOKENS_MODULE, 'signDocuments', { docStart: t.docStart, lowWords: t.lowWords, words, signatures: sig, from, to })),
  );
  return sig;
}

/** `signatures` on the calling thread. */
export function signaturesHere(t: NumberedTokens, words: number): Uint32Array {
  const sig = sharedU32(t.docs * words);
  signDocuments({ docStart: t.docStart, lowWords: t.lowWords, words, signatures: sig, from: 0, to: t.docs });
  return sig;
}
