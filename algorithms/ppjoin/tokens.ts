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

/** One slice's documents as their distinct fingerprints, in text order of first occurrence. */
export interface TokenSlice {
  readonly docs: number;
  readonly width: 2 | 4;
  /** CSR over the slice's documents: entries docStart[d] .. docStart[d+1] */
  readonly docStart: Uint32Array;
  /** `width` words per entry, most significant first */
  readonly keys: Uint32Array;
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
    this.mask = Math.min(cap, this.stamp.length) - 1;
    this.generation++;
  }

  /** Adds entry i of `data`; false when an equal fingerprint is in already. */
  add(data: Uint32Array, i: number, width: number): boolean {
    let slot = hashKey(data, i * width, width) & this.mask;
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

/** Runs in a worker thread: normalizes, fingerprints and de-duplicates one slice's documents. */
export function tokenizeSlice(p: TokenizePayload): TokenSlice {
  const width: 2 | 4 = p.kind === 'md5' ? 4 : 2;
  const seen = new FingerprintSet();
  const docStart = new Uint32Array(p.texts.length + 1);
  let keys = new Uint32Array(1 << 16);
  let n = 0;
  p.texts.forEach((text, d) => {
    const fps = shingleFingerprints(normalize(text), p.shingle, p.kind);
    if (keys.length < (n + fps.count) * width) {
      const grown = new Uint32Array(Math.max(keys.length * 2, (n + fps.count) * width));
      grown.set(keys.subarray(0, n * width));
      keys = grown;
    }
    seen.reset(fps.count);
    for (let i = 0; i < fps.count; i++) {
      if (!seen.add(fps.data, i, width)) continue;
      for (let w = 0; w < width; w++) keys[n * width + w] = fps.data[i * width + w] as number;
      n++;
    }
    docStart[d + 1] = n;
  });
  return { docs: p.texts.length, width, docStart, keys: keys.slice(0, n * width) };
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

/** Numbers the slices' fingerprints across the corpus (slices given in corpus order). */
export function numberTokens(slices: readonly TokenSlice[]): NumberedTokens {
  const width = slices[0]?.width ?? 2;
  const docs = slices.reduce((s, x) => s + x.docs, 0);
  const entries = slices.reduce((s, x) => s + x.keys.length / width, 0);
  const docStart = sharedU32(docs + 1);
  const ids = sharedU32(entries);
  const lowWords = new Uint32Array(entries);
  // Open addressing over token ids; the table grows by doubling at 50% load.
  let cap = 1 << 12;
  while (cap < entries / 2) cap *= 2;
  let table = new Int32Array(cap).fill(-1);
  let tokenKeys = new Uint32Array(Math.max(1024, entries >>> 2) * width);
  let distinct = 0;
  let df = new Uint32Array(Math.max(1, entries));
  const grow = (): void => {
    cap *= 2;
    table = new Int32Array(cap).fill(-1);
    for (let id = 0; id < distinct; id++) {
      let slot = hashKey(tokenKeys, id * width, width) & (cap - 1);
      while (table[slot] !== -1) slot = (slot + 1) & (cap - 1);
      table[slot] = id;
    }
  };
  let e = 0;
  let d = 0;
  for (const s of slices) {
    for (let k = 0; k < s.docs; k++) {
      for (let q = s.docStart[k] as number; q < (s.docStart[k + 1] as number); q++) {
        let slot = hashKey(s.keys, q * width, width) & (cap - 1);
        let id: number;
        for (;;) {
          const t = table[slot] as number;
          if (t === -1) {
            id = distinct++;
            if (tokenKeys.length < distinct * width) {
              const grown = new Uint32Array(2 * tokenKeys.length);
              grown.set(tokenKeys);
              tokenKeys = grown;
            }
            for (let w = 0; w < width; w++) tokenKeys[id * width + w] = s.keys[q * width + w] as number;
            table[slot] = id;
            if (2 * distinct > cap) grow();
            break;
          }
          if (sameKey(tokenKeys, t * width, s.keys, q * width, width)) {
            id = t;
            break;
          }
          slot = (slot + 1) & (cap - 1);
        }
        ids[e] = id;
        df[id] = (df[id] as number) + 1;
        lowWords[e] = s.keys[q * width + width - 1] as number;
        e++;
      }
      docStart[++d] = e;
    }
  }
  tokenKeys = new Uint32Array(0);
  df = df.slice(0, distinct);
  return { docs, width, distinct, docStart, ids, df, lowWords };
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
