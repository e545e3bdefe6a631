/**
 * The kernel's work that runs on worker threads, one slice of the corpus or of the sentences a
 * call: counting terms, signing sentences, and the sentence join (Algorithm 1 as ScanCount).
 */
import { documentTerms, makeKeySigner, type CorpusTables } from './sentence-signatures.ts';
import { U32Builder } from './chunks.ts';
import { KeyTable } from './key-table.ts';
import { normalize } from './normalize.ts';
import { splitSentences } from './sentences.ts';
import { compatibleSizes, nearDuplicate } from './set-similarity.ts';
import type { SentenceSignature } from './params.ts';

export interface TermSlice {
  readonly terms: string[];
  /** documents of the slice holding each term */
  readonly df: Uint32Array;
}

/** Document frequencies within a slice of documents. */
export function termSlice(p: { texts: readonly string[] }): TermSlice {
  const df = new Map<string, number>();
  for (const text of p.texts) for (const t of new Set(documentTerms(text))) df.set(t, (df.get(t) ?? 0) + 1);
  return { terms: [...df.keys()], df: Uint32Array.from(df.values()) };
}

/** Document-level SpotSigs (`algorithms/spotsigs/`): each document one unit, signed whole. */
export function signDocumentsSlice(p: SignPayload): SignedSlice {
  const signer = makeKeySigner(p.signature, p.tables);
  const table = new KeyTable(signer.width);
  const sigStart = new U32Builder(p.texts.length + 1);
  const keys = new U32Builder();
  sigStart.push(0);
  for (const text of p.texts) {
    table.clear();
    signer.sign(normalize(text), table);
    keys.append(table.keys());
    sigStart.push(keys.length / signer.width);
  }
  const n = p.texts.length;
  return {
    docSentences: new Uint32Array(n).fill(1),
    start: new Uint32Array(n),
    end: Uint32Array.from(p.texts, (t) => t.length),
    sigStart: sigStart.result(),
    width: signer.width,
    keys: keys.result(),
  };
}

export interface SignPayload {
  readonly texts: readonly string[];
  readonly signature: SentenceSignature;
  readonly tables: CorpusTables;
}

/** A slice of documents as sentences with signatures, each signature `width` uint32 words. */
export interface SignedSlice {
  /** sentences of each document of the slice */
  readonly docSentences: Uint32Array;
  /** per sentence of the slice, in document then sentence order */
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  /** CSR over sentences of their distinct signatures in `keys` (in signatures, not words) */
  readonly sigStart: Uint32Array;
  readonly width: number;
  readonly keys: Uint32Array;
}

export function signSlice(p: SignPayload): SignedSlice {
  const signer = makeKeySigner(p.signature, p.tables);
  const table = new KeyTable(signer.width);
  const docSentences = new Uint32Array(p.texts.length);
  const start = new U32Builder();
  const end = new U32Builder();
  const sigStart = new U32Builder();
  const keys = new U32Builder();
  sigStart.push(0);
  p.texts.forEach((text, d) => {
    const sentences = splitSentences(text);
    docSentences[d] = sentences.length;
    for (const s of sentences) {
      start.push(s.start);
      end.push(s.end);
      table.clear();
      signer.sign(normalize(text.slice(s.start, s.end)), table);
      keys.append(table.keys());
      sigStart.push(keys.length / signer.width);
    }
  });
  return {
    docSentences,
    start: start.result(),
    end: end.result(),
    sigStart: sigStart.result(),
    width: signer.width,
    keys: keys.result(),
  };
}

export interface JoinPayload {
  /** document of each sentence (global sentence index, in (document, sentence) order) */
  readonly sentDoc: Uint32Array;
  /** distinct signatures of each sentence */
  readonly size: Uint32Array;
  /** CSR over sentences of their signature ids, and each entry's position in that id's postings */
  readonly sigStart: Uint32Array;
  readonly sigs: Uint32Array;
  readonly entryPos: Uint32Array;
  /** CSR over signature ids of the sentences holding them, ascending */
  readonly postStart: Uint32Array;
  readonly postSent: Uint32Array;
  readonly sentences: number;
  readonly tau: number;
  readonly from: number;
  readonly to: number;
}

export interface JoinResult {
  /** near-duplicate sentence pairs (x, y), x < y, sentences of different documents */
  readonly x: Uint32Array;
  readonly y: Uint32Array;
  /** signatures each pair shares */
  readonly common: Uint32Array;
  /** records MR#2's mapper emits (pairs passing the length filter, once per shared signature) */
  readonly candidates: number;
  /** distinct sentence pairs among them (MR#2's reduce calls) */
  readonly distinct: number;
}

/** Algorithm 1 for the sentences x in [from, to): ScanCount over the postings after x. */
export function joinSentences(p: JoinPayload): JoinResult {
  const { sentDoc, size, sigStart, sigs, entryPos, postStart, postSent, tau } = p;
  const count = new Uint32Array(p.sentences);
  const touched = new Uint32Array(p.sentences);
  const outX: number[] = [];
  const outY: number[] = [];
  const outC: number[] = [];
  let candidates = 0;
  let distinct = 0;
  for (let x = p.from; x < p.to; x++) {
    const dx = sentDoc[x] as number;
    const sx = size[x] as number;
    // The length filter as an interval of sizes: no division per candidate.
    const [lo, hi] = compatibleSizes(sx, tau);
    let nt = 0;
    for (let e = sigStart[x] as number; e < (sigStart[x + 1] as number); e++) {
      const id = sigs[e] as number;
      const end = postStart[id + 1] as number;
      for (let q = (postStart[id] as number) + (entryPos[e] as number) + 1; q < end; q++) {
        const y = postSent[q] as number;
        const sy = size[y] as number;
        if (sy < lo || sy > hi || sentDoc[y] === dx) continue;
        const c = count[y] as number;
        if (c === 0) touched[nt++] = y;
        count[y] = c + 1;
        candidates++;
      }
    }
    touched.subarray(0, nt).sort();
    for (let t = 0; t < nt; t++) {
      const y = touched[t] as number;
      const c = count[y] as number;
      count[y] = 0;
      distinct++;
      if (!nearDuplicate(c, sx, size[y] as number, tau)) continue;
      outX.push(x);
      outY.push(y);
      outC.push(c);
    }
  }
  return { x: Uint32Array.from(outX), y: Uint32Array.from(outY), common: Uint32Array.from(outC), candidates, distinct };
}
