/**
 * The unsampled RR from a floor up, in time that follows the pairs it finds: All-Pairs' prefix
 * and length filters (Bayardo et al. 2007; PPJoin's, Xiao et al. 2008) over the fingerprint
 * ids ordered rarest first, each candidate verified exactly by merging the two documents'
 * sorted id lists. The full join (`scanCount` in join.ts) visits every pair behind every shared
 * fingerprint, d² for an id held by d documents: boilerplate held by thousands of documents
 * makes it quadratic in the collection. Here an id enters the join only through the prefixes
 * of the documents holding it, and the rarest ids fill the prefixes, so boilerplate rarely does.
 *
 * Exact: a pair with RR ≥ t shares an id among both documents' first |x| − ⌈t·|x|⌉ + 1 ids in
 * the common order (their overlap is at least t·max(|x|, |y|)), and its sizes are within a
 * factor t of each other; both filters here are a little wider than that (rounding slack),
 * and the decision is the full join's own `c / (|x| + |y| − c) >= floor`, double for double.
 */
import { invertLists } from '../../kernels/postings.ts';
import { sortRecords } from '../../kernels/sort/records.ts';
import { sharedU32, sharedU8 } from '../text/chunks.ts';
import type { DocumentFeatures } from '../text/features.ts';
import type { BroderParams } from './params.ts';

/**
 * Below this floor the prefixes are whole documents (any document under a million ids): every
 * pair sharing a fingerprint is then reported, which is the full join's (ScanCount's) own work.
 */
const PREFIX_JOIN_FLOOR = 2 ** -20;

/** Whether the unsampled RR from `floor` up is found by the prefix join instead of the full join. */
export function usesPrefixJoin(params: Pick<BroderParams, 'sampling'>, floor: number): boolean {
  return params.sampling.method === 'none' && floor >= PREFIX_JOIN_FLOOR;
}

/** Relative slack on the filters' bounds, far above a double's rounding and far below one id. */
const SLACK = 1e-9;
/** No document to probe after this one (a prefix entry's `prefixNext`), and the end of a list in `listDocs`. */
export const NO_NEXT = 0xffffffff;

/** The fewest ids a document of `size` must share with another for an RR of `floor` (at least 1), a lower bound. */
export function minimumOverlap(size: number, floor: number): number {
  return Math.max(1, Math.ceil(floor * size * (1 - SLACK)));
}

/** The length of the prefix of a document of `size` that a pair with RR ≥ `floor` must share an id in. */
export function prefixLength(size: number, floor: number): number {
  return size === 0 ? 0 : size - minimumOverlap(size, floor) + 1;
}

/** Sizes a partner of a document of `size` can have at RR ≥ `floor`, widened by the slack. */
export function partnerSizes(size: number, floor: number): [number, number] {
  return [Math.ceil(floor * size * (1 - SLACK)), Math.floor((size / floor) * (1 + SLACK))];
}

export interface PrefixIndex {
  readonly docs: number;
  /** CSR over documents of their prefix entries */
  readonly prefixStart: Uint32Array;
  /**
   * where each document's prefix entries end, when they are not end to end (the out-of-core
   * index's prefixes are the heads of the documents' id lists: external-prefix.ts); default
   * `prefixStart[d + 1]`
   */
  readonly prefixEnd?: Uint32Array;
  /**
   * for each prefix entry, where in `listDocs` the documents after this one in its id's list
   * start, or NO_NEXT when none follows (the id's last document, or an id of one document): the
   * probe reads no list offsets and no list at all for such an entry
   */
  readonly prefixNext: Uint32Array;
  /**
   * each id's list of the documents whose prefix holds it, ascending, without its first (which no
   * probe reads), each followed by NO_NEXT; ids of fewer than two such documents have none
   */
  readonly listDocs: Uint32Array;
  /** probing work per document (list entries after its own), for balancing the threads' ranges */
  readonly work: Float64Array;
}

/**
 * Fills `prefixNext` and `listDocs` for one id's list, the prefix entries `entries[0 .. m)` of the
 * documents `docs[0 .. m)` (ascending), from `at` in `listDocs`; returns the next free place.
 */
function placeList(x: { readonly prefixNext: Uint32Array; readonly listDocs: Uint32Array; readonly work: Float64Array }, entries: Uint32Array, docs: Uint32Array, m: number, at: number): number {
  if (m === 0) return at;
  if (m === 1) {
    x.prefixNext[entries[0] as number] = NO_NEXT;
    return at;
  }
  for (let i = 0; i < m - 1; i++) {
    x.prefixNext[entries[i] as number] = at + i;
    x.listDocs[at + i] = docs[i + 1] as number;
    const d = docs[i] as number;
    x.work[d] = (x.work[d] as number) + (m - 1 - i);
  }
  x.prefixNext[entries[m - 1] as number] = NO_NEXT;
  x.listDocs[at + m - 1] = NO_NEXT;
  return at + m;
}

/**
 * One pass over the postings in rarest-first order fills each document's prefix with its
 * rarest ids and, at once, each id's list of the documents whose prefix holds it (ascending,
 * as the postings are). Memory: two words a prefix entry.
 */
export function buildPrefixIndex(f: DocumentFeatures, floor: number): PrefixIndex {
  const F = f.fingerprints;
  const df = (id: number): number => (f.postStart[id + 1] as number) - (f.postStart[id] as number);
  // Ids by (document frequency, id): a counting sort on the frequency.
  const byDf = new Uint32Array(f.docs + 2);
  for (let id = 0; id < F; id++) byDf[df(id) + 1]!++;
  for (let n = 1; n < byDf.length; n++) byDf[n] = (byDf[n] as number) + (byDf[n - 1] as number);
  const order = new Uint32Array(F);
  for (let id = 0; id < F; id++) order[byDf[df(id)]!++] = id;

  const prefixStart = sharedU32(f.docs + 1);
  for (let d = 0; d < f.docs; d++) {
    const size = (f.docStart[d + 1] as number) - (f.docStart[d] as number);
    prefixStart[d + 1] = (prefixStart[d] as number) + prefixLength(size, floor);
  }
  const entries = prefixStart[f.docs] as number;
  const index = { prefixNext: sharedU32(entries), listDocs: sharedU32(entries), work: new Float64Array(f.docs) };
  const fill = prefixStart.slice(0, f.docs);
  // one list's prefix entries and documents, as its posting is walked
  let listEntries = new Uint32Array(64);
  let listDocs = new Uint32Array(64);
  let at = 0;
  for (let r = 0; r < F; r++) {
    const id = order[r] as number;
    const shared = df(id) >= 2;
    if (shared && df(id) > listEntries.length) {
      listEntries = new Uint32Array(df(id));
      listDocs = new Uint32Array(df(id));
    }
    let m = 0;
    for (let q = f.postStart[id] as number; q < (f.postStart[id + 1] as number); q++) {
      const d = f.postDocs[q] as number;
      const e = fill[d] as number;
      if (e === (prefixStart[d + 1] as number)) continue;
      fill[d] = e + 1;
      if (!shared) {
        index.prefixNext[e] = NO_NEXT;
        continue;
      }
      listEntries[m] = e;
      listDocs[m++] = d;
    }
    at = placeList(index, listEntries, listDocs, m, at);
  }
  return { docs: f.docs, prefixStart, ...index };
}

/**
 * The documents' id lists in one order: ids ascending, the same id the same fingerprint. With
 * `sizes`, the lists hold only the ids shared by two documents or more, in rarest-first order
 * (external-prefix.ts), and `sizes` gives each document's distinct fingerprints: the ids no other
 * document holds change no pair's count of shared ids, only the sizes.
 */
export interface IdLists {
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  readonly sizes?: Uint32Array;
}

/** Each document's distinct fingerprints. */
function sizeOf(f: IdLists): (d: number) => number {
  const { docStart, sizes } = f;
  return sizes ? (d) => sizes[d] as number : (d) => (docStart[d + 1] as number) - (docStart[d] as number);
}

/** The ids two documents share, by merging their ascending id lists. */
export function commonIds(docStart: Uint32Array, ids: Uint32Array, x: number, y: number): number {
  let i = docStart[x] as number;
  const iEnd = docStart[x + 1] as number;
  let j = docStart[y] as number;
  const jEnd = docStart[y + 1] as number;
  let c = 0;
  while (i < iEnd && j < jEnd) {
    const u = ids[i] as number;
    const v = ids[j] as number;
    if (u === v) {
      c++;
      i++;
      j++;
    } else if (u < v) i++;
    else j++;
  }
  return c;
}

/**
 * The exact unsampled RR of given pairs, from the documents' id lists: how the evaluation
 * scores a pair the ground truth did not report because it scored under the floor. The same
 * expression as the join's, so a pair gets the same double either way; 0 when it shares nothing.
 */
export function exactResemblance(f: IdLists, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(a.length);
  const size = sizeOf(f);
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    const c = commonIds(f.docStart, f.ids, x, y);
    if (c === 0) continue;
    const sx = size(x);
    const sy = size(y);
    out[i] = c / (sx + sy - c);
  }
  return out;
}

export interface ScorePairsPayload extends IdLists {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
}

/** Runs in a worker thread: the exact RR of the pairs (a[i], b[i]) (exactResemblance), for the scorer (kernel.ts). */
export function scorePairs(p: ScorePairsPayload): Float64Array {
  return exactResemblance(p, p.a, p.b);
}

export interface PrefixJoinPayload extends IdLists {
  readonly index: Omit<PrefixIndex, 'work'>;
  readonly floor: number;
  readonly from: number;
  readonly to: number;
}

export interface PrefixJoinResult {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  /** pairs verified (candidates after both filters) */
  readonly verified: number;
}

/** Runs in a worker thread: the pairs (a, b > a) with RR ≥ floor for a in [from, to), sorted by (a, b). */
export function prefixJoin(p: PrefixJoinPayload): PrefixJoinResult {
  const { index: x, docStart, ids, floor } = p;
  const docs = x.docs;
  const prefixEnd = x.prefixEnd ?? x.prefixStart.subarray(1);
  // For each document: the last document it was seen as a candidate for, plus one (each
  // candidate verified once), and its size, side by side: a probe visits documents at random,
  // and one cache line then serves both.
  const seenAndSize = new Uint32Array(docs * 2);
  const touched = new Uint32Array(docs);
  let cap = 1 << 10;
  let outA = new Uint32Array(cap);
  let outB = new Uint32Array(cap);
  let outS = new Float64Array(cap);
  let n = 0;
  let verified = 0;
  const size = sizeOf(p);
  for (let d = 0; d < docs; d++) seenAndSize[2 * d + 1] = size(d);
  for (let a = p.from; a < p.to; a++) {
    const sa = size(a);
    if (sa === 0) continue;
    const [lo, hi] = partnerSizes(sa, floor);
    let nt = 0;
    for (let e = x.prefixStart[a] as number; e < (prefixEnd[a] as number); e++) {
      let q = x.prefixNext[e] as number;
      if (q === NO_NEXT) continue;
      for (let b = x.listDocs[q] as number; b !== NO_NEXT; b = x.listDocs[++q] as number) {
        if (seenAndSize[2 * b] === a + 1) continue;
        seenAndSize[2 * b] = a + 1;
        const sb = seenAndSize[2 * b + 1] as number;
        if (sb < lo || sb > hi) continue;
        touched[nt++] = b;
      }
    }
    touched.subarray(0, nt).sort();
    verified += nt;
    for (let t = 0; t < nt; t++) {
      const b = touched[t] as number;
      const c = commonIds(docStart, ids, a, b);
      const sb = size(b);
      // The full join's expression (join.ts scanCount), so the same double.
      const rr = c / (sa + sb - c);
      if (!(rr >= floor)) continue;
      if (n === cap) {
        cap *= 2;
        outA = grown(outA, cap);
        outB = grown(outB, cap);
        const s2 = new Float64Array(cap);
        s2.set(outS);
        outS = s2;
      }
      outA[n] = a;
      outB[n] = b;
      outS[n] = rr;
      n++;
    }
  }
  return { a: outA.slice(0, n), b: outB.slice(0, n), score: outS.slice(0, n), verified };
}

function grown(a: Uint32Array<ArrayBuffer>, cap: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(cap);
  out.set(a);
  return out;
}

/**
 * Which ids' postings the count of the pairs sharing an id walks (countSharedPairs): one id of
 * each set of ids held by the same documents, none held by one document. Exact: the pairs
 * sharing an id are the union, over the ids, of the pairs of their postings, and an id whose
 * postings equal another's adds none. Shared text makes such sets: a template's header is
 * dozens of shingles in the same documents, and so is a line copied into hundreds. Found by
 * sorting the ids by (hash of the postings, frequency) and comparing the lists of equal keys.
 */
export function distinctPostings(postStart: Uint32Array, postDocs: Uint32Array, lists: number): Uint8Array {
  const df = (id: number): number => (postStart[id + 1] as number) - (postStart[id] as number);
  let shared = 0;
  for (let id = 0; id < lists; id++) if (df(id) >= 2) shared++;
  const records = new Uint32Array(Math.max(1, shared * 2));
  const owners = new Uint32Array(Math.max(1, shared));
  let n = 0;
  for (let id = 0; id < lists; id++) {
    const from = postStart[id] as number;
    const to = postStart[id + 1] as number;
    if (to - from < 2) continue;
    let h = 0x811c9dc5;
    for (let q = from; q < to; q++) h = Math.imul(h ^ (postDocs[q] as number), 0x01000193);
    records[2 * n] = h >>> 0;
    records[2 * n + 1] = to - from;
    owners[n++] = id;
  }
  const sorted = sortRecords(records, { width: 2, keyWords: 2, count: n, owners });
  const keys = sorted.records;
  const ids = sorted.owners;
  const sameList = (x: number, y: number): boolean => {
    const fx = postStart[x] as number;
    const fy = postStart[y] as number;
    for (let q = 0; q < df(x); q++) if (postDocs[fx + q] !== postDocs[fy + q]) return false;
    return true;
  };
  const keep = sharedU8(lists);
  const kept: number[] = [];
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && keys[2 * j] === keys[2 * i] && keys[2 * j + 1] === keys[2 * i + 1]) j++;
    // Ids of one key: each kept unless its list equals one kept before it (a hash collision keeps both).
    kept.length = 0;
    for (let k = i; k < j; k++) {
      const id = ids[k] as number;
      if (kept.some((other) => sameList(other, id))) continue;
      kept.push(id);
      keep[id] = 1;
    }
    i = j;
  }
  return keep;
}

/**
 * Each document's list of the ids `walk` keeps (distinctPostings), with its place in their
 * postings: what countSharedPairs walks, made from the kept ids' postings alone.
 */
export function sharingLists(o: { readonly postStart: Uint32Array; readonly postDocs: Uint32Array; readonly docs: number; readonly walk: Uint8Array }): Pick<SharingPayload, 'docStart' | 'ids' | 'entryPos'> {
  const r = invertLists({ keys: o.docs, entries: o.postDocs, listStart: o.postStart, keep: o.walk, positions: 'in-list', allocate: sharedU32 });
  return { docStart: r.start, ids: r.lists, entryPos: r.positions };
}

export interface SharingPayload {
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  readonly entryPos: Uint32Array;
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  readonly docs: number;
  readonly from: number;
  readonly to: number;
}

/**
 * Runs in a worker thread: the pairs (a, b > a), a in [from, to), that share a fingerprint:
 * MR#2's `distinct_pairs` (its reduce calls), which the text jobs count at any floor. Counted
 * without being made, one mark a document, but along every posting after a document's own:
 * MR#1's emissions, the one pass of the ground truth whose cost is not its output's.
 */
export function countSharedPairs(p: SharingPayload): number {
  const seen = new Uint32Array(p.docs);
  let distinct = 0;
  for (let a = p.from; a < p.to; a++) {
    for (let e = p.docStart[a] as number; e < (p.docStart[a + 1] as number); e++) {
      const id = p.ids[e] as number;
      const end = p.postStart[id + 1] as number;
      for (let q = (p.postStart[id] as number) + (p.entryPos[e] as number) + 1; q < end; q++) {
        const b = p.postDocs[q] as number;
        if (seen[b] === a + 1) continue;
        seen[b] = a + 1;
        distinct++;
      }
    }
  }
  return distinct;
}

