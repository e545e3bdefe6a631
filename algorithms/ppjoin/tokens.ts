/**
 * The join's tokens in the kernel: the corpus's fingerprint features (`algorithms/text/features.ts`,
 * computed once per run for every detector of the same shingling by `corpus-features.ts`, so a
 * run with Broder's ground truth fingerprints the corpus once), put in the global order.
 *
 * The global order is ascending document frequency, ties by fingerprint: what the first text job
 * writes as `df fingerprint` in hex (`jobs.ts`, `tokenText`). Feature ids are numbered in
 * fingerprint order and a token's posting list is as long as its document frequency, so a stable
 * counting sort of the ids by posting length gives the ranks.
 */
import type { DocumentFeatures } from '../text/features.ts';
import { sharedU32 } from '../text/chunks.ts';
import { signatureBit } from './signature.ts';

/** Each document's tokens as ascending ranks of the global order. */
export interface RankedSets {
  readonly docs: number;
  readonly distinct: number;
  readonly docStart: Uint32Array;
  readonly ranks: Uint32Array;
}

/** The rank of every feature id: a stable counting sort of the ids by document frequency. */
export function rankOfFeatures(f: DocumentFeatures): Uint32Array {
  const F = f.fingerprints;
  const df = (id: number): number => (f.postStart[id + 1] as number) - (f.postStart[id] as number);
  let maxDf = 0;
  for (let id = 0; id < F; id++) maxDf = Math.max(maxDf, df(id));
  const next = new Uint32Array(maxDf + 2);
  for (let id = 0; id < F; id++) next[df(id) + 1] = (next[df(id) + 1] as number) + 1;
  for (let v = 1; v <= maxDf + 1; v++) next[v] = (next[v] as number) + (next[v - 1] as number);
  const rankOf = new Uint32Array(F);
  for (let id = 0; id < F; id++) {
    const d = df(id);
    rankOf[id] = next[d] as number;
    next[d] = (next[d] as number) + 1;
  }
  return rankOf;
}

/**
 * Each document's tokens as ascending ranks, without sorting them: the posting lists are read in
 * rank order and each rank appended to its documents. The reads run along the postings and the
 * writes go to each document's next slot; looking up the rank of every entry instead and sorting
 * each document takes twice as long on 10⁵ documents (a cache miss per entry, then the sorts).
 */
export function rankTokens(f: DocumentFeatures): RankedSets {
  const rankOf = rankOfFeatures(f);
  const idOfRank = new Uint32Array(f.fingerprints);
  for (let id = 0; id < f.fingerprints; id++) idOfRank[rankOf[id] as number] = id;
  const ranks = sharedU32(f.ids.length);
  const fill = f.docStart.slice(0, f.docs);
  for (let r = 0; r < f.fingerprints; r++) {
    const id = idOfRank[r] as number;
    for (let q = f.postStart[id] as number; q < (f.postStart[id + 1] as number); q++) {
      const d = f.postDocs[q] as number;
      const at = fill[d] as number;
      fill[d] = at + 1;
      ranks[at] = r;
    }
  }
  return { docs: f.docs, distinct: f.fingerprints, docStart: f.docStart, ranks };
}

/**
 * Every document's signature bitmap, `words` 32-bit words each: the bit of each token, from the
 * last word of its fingerprint, set in the bitmap of every document of its posting list (one
 * hash per token, the postings read in order).
 */
export function signatures(f: DocumentFeatures, words: number): Uint32Array {
  const sig = sharedU32(f.docs * words);
  const bits = 32 * words;
  for (let id = 0; id < f.fingerprints; id++) {
    const bit = signatureBit(f.words[id * f.width + f.width - 1] as number, bits);
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    for (let q = f.postStart[id] as number; q < (f.postStart[id + 1] as number); q++) {
      const at = (f.postDocs[q] as number) * words + word;
      sig[at] = (sig[at] as number) | mask;
    }
  }
  return sig;
}
