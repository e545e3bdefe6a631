/**
 * The join's tokens in the kernel: the corpus's fingerprint features (`algorithms/text/features.ts`,
 * computed once per run for every detector of the same shingling by `corpus-features.ts`, so a
 * run with Broder's ground truth fingerprints the corpus once), put in the global order.
 *
 * The global order is ascending document frequency, ties by fingerprint: what the first text job
 * writes as `df fingerprint` in hex (`jobs.ts`, `tokenText`). Feature ids are numbered in
 * fingerprint order and a token's posting list is as long as its document frequency, so a stable
 * counting sort of the ids by posting length gives the ranks; each document's ranks are then
 * sorted on the worker threads, a range of documents each.
 */
import type { DocumentFeatures } from '../text/features.ts';
import { sharedU32 } from '../text/chunks.ts';
import { addToSignature } from './signature.ts';

export const TOKENS_MODULE = new URL('./tokens.ts', import.meta.url).href;

type RunInWorker = <T>(moduleUrl: string, exportName: string, payload: unknown) => Promise<T>;

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
  const rankOf = sharedU32(F);
  for (let id = 0; id < F; id++) {
    const d = df(id);
    rankOf[id] = next[d] as number;
    next[d] = (next[d] as number) + 1;
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

/** The ranked sets, on `parallelism` threads each sorting a range of documents of about equal size. */
export async function rankTokens(f: DocumentFeatures, parallelism: number, run: RunInWorker): Promise<RankedSets> {
  const rankOf = rankOfFeatures(f);
  const ranks = sharedU32(f.ids.length);
  await Promise.all(
    entryRanges(f.docStart, f.docs, Math.max(1, parallelism)).map(([from, to]) =>
      run<void>(TOKENS_MODULE, 'rankDocuments', { docStart: f.docStart, ids: f.ids, rankOf, ranks, from, to }),
    ),
  );
  return { docs: f.docs, distinct: f.fingerprints, docStart: f.docStart, ranks };
}

/** `rankTokens` on the calling thread. */
export function rankTokensHere(f: DocumentFeatures): RankedSets {
  const ranks = sharedU32(f.ids.length);
  rankDocuments({ docStart: f.docStart, ids: f.ids, rankOf: rankOfFeatures(f), ranks, from: 0, to: f.docs });
  return { docs: f.docs, distinct: f.fingerprints, docStart: f.docStart, ranks };
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
  readonly ids: Uint32Array;
  /** the last 32-bit word of each feature id's fingerprint */
  readonly lowWords: Uint32Array;
  readonly words: number;
  /** written: `words` words per document */
  readonly signatures: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/** Runs in a worker thread: the signature bitmaps of documents [from, to). */
export function signDocuments(p: SignaturePayload): void {
  const bits = 32 * p.words;
  for (let d = p.from; d < p.to; d++) {
    for (let e = p.docStart[d] as number; e < (p.docStart[d + 1] as number); e++) {
      addToSignature(p.signatures, d * p.words, p.lowWords[p.ids[e] as number] as number, bits);
    }
  }
}

/** The last word of every feature id's fingerprint, where the signature bit comes from. */
function lowWordsOf(f: DocumentFeatures): Uint32Array {
  const low = sharedU32(f.fingerprints);
  for (let id = 0; id < f.fingerprints; id++) low[id] = f.words[id * f.width + f.width - 1] as number;
  return low;
}

/** Every document's signature bitmap, `words` 32-bit words each, on `parallelism` threads. */
export async function signatures(f: DocumentFeatures, words: number, parallelism: number, run: RunInWorker): Promise<Uint32Array> {
  const sig = sharedU32(f.docs * words);
  const lowWords = lowWordsOf(f);
  await Promise.all(
    entryRanges(f.docStart, f.docs, Math.max(1, parallelism)).map(([from, to]) =>
      run<void>(TOKENS_MODULE, 'signDocuments', { docStart: f.docStart, ids: f.ids, lowWords, words, signatures: sig, from, to }),
    ),
  );
  return sig;
}

/** `signatures` on the calling thread. */
export function signaturesHere(f: DocumentFeatures, words: number): Uint32Array {
  const sig = sharedU32(f.docs * words);
  signDocuments({ docStart: f.docStart, ids: f.ids, lowWords: lowWordsOf(f), words, signatures: sig, from: 0, to: f.docs });
  return sig;
}
