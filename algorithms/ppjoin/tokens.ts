/**
 * The join's tokens in the kernel: each document's distinct shingle fingerprints (exactly Broder's
 * sets, `algorithms/text/fingerprint.ts`), numbered and put in the global order.
 *
 * The global order is ascending document frequency, ties broken by first occurrence (the first
 * document holding the token, then the token's place among that document's distinct tokens in
 * text order). The first job of the text pipeline knows all three for a token from its reducer's
 * values, and here hashing the documents in order numbers the tokens in first-occurrence order, so
 * a stable counting sort by frequency gives the ranks. This costs one hash-table pass where a
 * fingerprint-ordered dictionary (Broder's `features.ts`) needs a radix sort and a merge: the
 * order of tokens of equal frequency is arbitrary for PPJoin (Xiao et al. only ask for a global
 * order), as long as the jobs and the kernel agree on it.
 *
 * Worker threads fingerprint slices of the corpus and drop repeated fingerprints within each
 * document (`tokenizeSlice`); the calling thread numbers the tokens across slices
 * (`numberTokens`) and ranks them (`rankTokens`).
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

/** Partitions of the numbering pass: by the top bits of a token's hash. */
const PARTITION_BITS = 8;
const PARTITIONS = 1 << PARTITION_BITS;

/** One slice's documents as their distinct fingerprints, in text order of first occurrence. */
export interface TokenSlice {
  readonly docs: number;
  readonly width: 2 | 4;
  /** CSR over the slice's documents: entries docStart[d] .. docStart[d+1] */
  readonly docStart: Uint32Array;
  /** the last 32-bit word of each entry's fingerprint, in entry order */
  readonly lowWords: Uint32Array;
  /**
   * The entries grouped by partition, in entry order within each: the k-th of the slice's
   * grouped entries is entry partEntries[k], with fingerprint partKeys[k·width ..] (most
   * significant word first) and hash partHashes[k]; partition p is [partStart[p], partStart[p+1]).
   * Grouped copies, so that the numbering pass reads them in sequence.
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

function hashKey(data: Uint32Array, at: number, width: number): number {
  let h = 0x811c9dc5;
  for (let w = 0; w < width; w++) {
    h = Math.imul(h ^ (data[at + w] as number), 0x9e3779b1);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

function sameKey(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): boolean {
  for (let w = 0; w < width; w++) if (a[i + w] !== b[j + w]) return false;
  return true;
}

/**
 * Runs in a worker thread: normalizes, fingerprints and de-duplicates one slice's documents,
 * and groups its entries by hash partition for the numbering pass.
 */
export function tokenizeSlice(p: TokenizePayload): TokenSlice {
  const width: 2 | 4 = p.kind === 'md5' ? 4 : 2;
  const seen = new FingerprintSet();
  const docStart = new Uint32Array(p.texts.length + 1);
  let keys = new Uint32Array(1 << 16);
  let hashes = new Uint32Array(1 << 15);
  let n = 0;
  p.texts.forEach((text, d) => {
    const fps = shingleFingerprints(normalize(text), p.shingle, p.kind);
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
  });
  const partStart = new Uint32Array(PARTITIONS + 1);
  for (let e = 0; e < n; e++) {
    const part = (hashes[e] as number) >>> (32 - PARTITION_BITS);
    partStart[part + 1] = (partStart[part + 1] as number) + 1;
  }
  for (let q = 0; q < PARTITIONS; q++) partStart[q + 1] = (partStart[q + 1] as number) + (partStart[q] as number);
  const fill = partStart.slice(0, PARTITIONS);
  const partEntries = new Uint32Array(n);
  const partKeys = new Uint32Array(n * width);
  const partHashes = new Uint32Array(n);
  const lowWords = new Uint32Array(n);
  for (let e = 0; e < n; e++) {
    const h = hashes[e] as number;
    const at = fill[h >>> (32 - PARTITION_BITS)] as number;
    fill[h >>> (32 - PARTITION_BITS)] = at + 1;
    partEntries[at] = e;
    partHashes[at] = h;
    for (let w = 0; w < width; w++) partKeys[at * width + w] = keys[e * width + w] as number;
    lowWords[e] = keys[e * width + width - 1] as number;
  }
  return { docs: p.texts.length, width, docStart, lowWords, partStart, partEntries, partKeys, partHashes };
}

/** The corpus's tokens, numbered in first-occurrence order. */
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

/**
 * Numbers the slices' fingerprints across the corpus (slices given in corpus order), partition
 * by partition: a partition's tokens fit a small hash table that stays in cache, where one table
 * for the whole corpus (tens of megabytes) would cost a cache and TLB miss per entry, four times
 * slower here. Tokens are first numbered in the order partitions find them, then renumbered by
 * their first entry, which is first-occurrence order.
 */
export function numberTokens(slices: readonly TokenSlice[]): NumberedTokens {
  const width = slices[0]?.width ?? 2;
  const stride = width + 2;
  const docs = slices.reduce((s, x) => s + x.docs, 0);
  const entries = slices.reduce((s, x) => s + x.lowWords.length, 0);
  const docStart = sharedU32(docs + 1);
  const sliceOffset: number[] = [];
  let e = 0;
  let d = 0;
  for (const s of slices) {
    sliceOffset.push(e);
    for (let k = 0; k < s.docs; k++) docStart[++d] = e + (s.docStart[k + 1] as number);
    e += s.lowWords.length;
  }
  let largest = 0;
  for (let part = 0; part < PARTITIONS; part++) {
    let size = 0;
    for (const s of slices) size += (s.partStart[part + 1] as number) - (s.partStart[part] as number);
    largest = Math.max(largest, size);
  }
  let cap = 64;
  while (cap < 2 * largest) cap *= 2;
  const mask = cap - 1;
  // Slot: key words, token + 1, generation stamp.
  const table = new Uint32Array(cap * stride);
  const tokenOf = new Uint32Array(entries);
  const firstEntry = new Uint32Array(Math.max(1, entries));
  const dfFound = new Uint32Array(Math.max(1, entries));
  let tokens = 0;
  for (let part = 0; part < PARTITIONS; part++) {
    const generation = part + 1;
    for (let si = 0; si < slices.length; si++) {
      const s = slices[si] as TokenSlice;
      const offset = sliceOffset[si] as number;
      const keys = s.partKeys;
      for (let q = s.partStart[part] as number; q < (s.partStart[part + 1] as number); q++) {
        const entry = s.partEntries[q] as number;
        const at = q * width;
        let slot = (s.partHashes[q] as number) & mask;
        for (;;) {
          const base = slot * stride;
          if (table[base + width + 1] !== generation) {
            for (let w = 0; w < width; w++) table[base + w] = keys[at + w] as number;
            table[base + width] = tokens;
            table[base + width + 1] = generation;
            firstEntry[tokens] = offset + entry;
            dfFound[tokens] = 1;
            tokenOf[offset + entry] = tokens++;
            break;
          }
          if (sameKey(table, base, keys, at, width)) {
            const t = table[base + width] as number;
            dfFound[t] = (dfFound[t] as number) + 1;
            tokenOf[offset + entry] = t;
            break;
          }
          slot = (slot + 1) & mask;
        }
      }
    }
  }
  // Renumber in first-occurrence order: first entries are distinct, so a pass over the entries finds them in order.
  const tokenAtEntry = new Int32Array(entries).fill(-1);
  for (let t = 0; t < tokens; t++) tokenAtEntry[firstEntry[t] as number] = t;
  const renumbered = new Uint32Array(tokens);
  const df = new Uint32Array(tokens);
  let next = 0;
  for (let x = 0; x < entries; x++) {
    const t = tokenAtEntry[x] as number;
    if (t < 0) continue;
    renumbered[t] = next;
    df[next++] = dfFound[t] as number;
  }
  const ids = sharedU32(entries);
  const lowWords = new Uint32Array(entries);
  for (let si = 0; si < slices.length; si++) {
    const s = slices[si] as TokenSlice;
    const offset = sliceOffset[si] as number;
    lowWords.set(s.lowWords, offset);
    for (let q = 0; q < s.lowWords.length; q++) ids[offset + q] = renumbered[tokenOf[offset + q] as number] as number;
  }
  return { docs, width, distinct: tokens, docStart, ids, df, lowWords };
}

/** Each document's tokens as ascending ranks of the global order. */
export interface RankedSets {
  readonly docs: number;
  readonly distinct: number;
  readonly docStart: Uint32Array;
  readonly ranks: Uint32Array;
}

/**
 * Ranks: a stable counting sort of the ids (first-occurrence order) by document frequency. Then
 * each document's ranks in ascending order without sorting them: the entries are dealt into
 * postings by rank, and the postings read back in rank order and appended to their documents.
 */
export function rankTokens(t: NumberedTokens): RankedSets {
  const F = t.distinct;
  let maxDf = 0;
  for (let id = 0; id < F; id++) maxDf = Math.max(maxDf, t.df[id] as number);
  const next = new Uint32Array(maxDf + 2);
  for (let id = 0; id < F; id++) next[(t.df[id] as number) + 1] = (next[(t.df[id] as number) + 1] as number) + 1;
  for (let f = 1; f <= maxDf + 1; f++) next[f] = (next[f] as number) + (next[f - 1] as number);
  const rankOf = new Uint32Array(F);
  const postStart = new Uint32Array(F + 1);
  for (let id = 0; id < F; id++) {
    const df = t.df[id] as number;
    const r = next[df] as number;
    next[df] = r + 1;
    rankOf[id] = r;
    postStart[r + 1] = df;
  }
  for (let r = 0; r < F; r++) postStart[r + 1] = (postStart[r + 1] as number) + (postStart[r] as number);
  const postDocs = new Uint32Array(t.ids.length);
  const fill = postStart.slice(0, F);
  for (let d = 0; d < t.docs; d++) {
    for (let e = t.docStart[d] as number; e < (t.docStart[d + 1] as number); e++) {
      const r = rankOf[t.ids[e] as number] as number;
      const at = fill[r] as number;
      fill[r] = at + 1;
      postDocs[at] = d;
    }
  }
  const ranks = sharedU32(t.ids.length);
  const docFill = t.docStart.slice(0, t.docs);
  for (let r = 0; r < F; r++) {
    for (let q = postStart[r] as number; q < (postStart[r + 1] as number); q++) {
      const d = postDocs[q] as number;
      const at = docFill[d] as number;
      docFill[d] = at + 1;
      ranks[at] = r;
    }
  }
  return { docs: t.docs, distinct: F, docStart: t.docStart, ranks };
}

/** Every document's signature bitmap, `words` 32-bit words each, from its fingerprints' last words. */
export function signatures(t: NumberedTokens, words: number): Uint32Array {
  const sig = sharedU32(t.docs * words);
  const bits = 32 * words;
  for (let d = 0; d < t.docs; d++) {
    for (let e = t.docStart[d] as number; e < (t.docStart[d + 1] as number); e++) addToSignature(sig, d * words, t.lowWords[e] as number, bits);
  }
  return sig;
}
