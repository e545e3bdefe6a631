/**
 * Document fingerprint sets as typed arrays, for the in-process kernel.
 *
 * Workers fingerprint contiguous slices of the corpus and radix-sort their (fingerprint,
 * document) entries (`fingerprintSlice`); the sorted slices are merged (`mergeSlices` on the
 * calling thread, `mergeOnThreads` a range of fingerprint values a thread), which gives every
 * distinct fingerprint a dense id in fingerprint order and its posting list (the documents
 * holding it, ascending) in one linear pass. This is MR#1's shuffle done as a sort, as Hadoop
 * does it (a reducer a key range), instead of a hash table: sequential memory traffic.
 */
import { compareKeys } from '../../kernels/sort/compare-keys.ts';
import { sortRecords } from '../../kernels/sort/records.ts';
import { sharedU32 } from './chunks.ts';
import { normalize } from './normalize.ts';
import { shingleFingerprints } from './fingerprint.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';

export interface FingerprintSlicePayload {
  readonly texts: readonly string[];
  /** corpus index of `texts[0]` */
  readonly firstDoc: number;
  readonly shingle: ShingleSpec;
  readonly kind: FingerprintKind;
  /** the result's arrays on SharedArrayBuffers, for a merge on several threads (`mergeOnThreads`) */
  readonly shared?: boolean;
}

/** A slice's distinct (fingerprint, document) entries, sorted by fingerprint then document. */
export interface SortedSlice {
  readonly width: 2 | 4;
  readonly firstDoc: number;
  readonly docs: number;
  /** `width` words per entry, most significant first */
  readonly keys: Uint32Array;
  /** corpus index of each entry's document */
  readonly owners: Uint32Array;
}

/** A slice's (fingerprint, document) entries in text order, repeats kept: `keys` has `width` words an entry. */
export interface SliceEntries {
  readonly width: 2 | 4;
  readonly keys: Uint32Array;
  readonly owners: Uint32Array;
}

/** Normalizes and fingerprints the documents of a slice, in document order, without sorting. */
export function sliceEntries(p: Pick<FingerprintSlicePayload, 'texts' | 'firstDoc' | 'shingle' | 'kind'>): SliceEntries {
  const width: 2 | 4 = p.kind === 'md5' ? 4 : 2;
  const parts: Uint32Array[] = [];
  let total = 0;
  for (const text of p.texts) {
    const fps = shingleFingerprints(normalize(text), p.shingle, p.kind);
    parts.push(fps.data.subarray(0, fps.count * width));
    total += fps.count;
  }
  const keys = new Uint32Array(total * width);
  const owners = new Uint32Array(total);
  let at = 0;
  parts.forEach((part, i) => {
    keys.set(part, at * width);
    owners.fill(p.firstDoc + i, at, at + part.length / width);
    at += part.length / width;
  });
  return { width, keys, owners };
}

/** Runs in a worker thread: normalizes, fingerprints and sorts one slice of the corpus. */
export function fingerprintSlice(p: FingerprintSlicePayload): SortedSlice {
  const entries = sliceEntries(p);
  const width = entries.width;
  // Stable: equal fingerprints stay in document order, which the merge relies on.
  const { records: keys, owners } = sortRecords(entries.keys, { width, keyWords: width, owners: entries.owners, keys: 'uniform' });
  const n = dropRepeats(keys, owners, width);
  const copy = (a: Uint32Array, length: number): Uint32Array => {
    if (!p.shared) return a.slice(0, length);
    const out = sharedU32(length);
    out.set(a.subarray(0, length));
    return length === 0 ? out.subarray(0, 0) : out;
  };
  return { width, firstDoc: p.firstDoc, docs: p.texts.length, keys: copy(keys, n * width), owners: copy(owners, n) };
}

/**
 * A document is the *set* of its fingerprints: drops an entry equal to the one before it (of
 * entries sorted stably by fingerprint, so that a document's repeats are neighbours), moving the
 * rest to the front; returns how many are left.
 */
export function dropRepeats(keys: Uint32Array, owners: Uint32Array, width: number, count = owners.length): number {
  let w = 0;
  for (let r = 0; r < count; r++) {
    if (r > 0 && owners[r] === owners[w - 1] && sameKey(keys, r, keys, w - 1, width)) continue;
    if (w !== r) {
      for (let x = 0; x < width; x++) keys[w * width + x] = keys[r * width + x] as number;
      owners[w] = owners[r] as number;
    }
    w++;
  }
  return w;
}

function sameKey(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): boolean {
  for (let x = 0; x < width; x++) if (a[i * width + x] !== b[j * width + x]) return false;
  return true;
}

/** Every document as the set of its fingerprint ids, and every id with its documents. */
export interface DocumentFeatures {
  readonly width: 2 | 4;
  readonly docs: number;
  /** number of distinct fingerprints; ids are 0..fingerprints-1 in fingerprint order */
  readonly fingerprints: number;
  /** `width` words of each fingerprint id, for sampling by value */
  readonly words: Uint32Array;
  /** CSR over ids: the documents holding id f are `postDocs[postStart[f] .. postStart[f+1])`, ascending */
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  /** CSR over documents: the ids of document d are `ids[docStart[d] .. docStart[d+1])`, ascending */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  /** for each entry of `ids`, the position of its document inside that id's posting list */
  readonly entryPos: Uint32Array;
}

/**
 * Merges the sorted slices (given in corpus order, so ties resolve to the lower document) into
 * postings, and derives the per-document lists from them, on the calling thread. All arrays live
 * on SharedArrayBuffers, so the join's worker threads read them without copies.
 * `corpus-features.ts` does the same on worker threads, a range of fingerprint values each.
 */
export function mergeSlices(slices: readonly SortedSlice[]): DocumentFeatures {
  const width = slices[0]?.width ?? 2;
  const docs = slices.reduce((s, x) => s + x.docs, 0);
  const entries = slices.reduce((s, x) => s + x.owners.length, 0);
  const postDocs = sharedU32(entries);
  const merged = mergeKeyRange({ width, docs, parts: slices.map((x) => ({ keys: x.keys, owners: x.owners, from: 0, to: x.owners.length })), postDocs, at: 0 });
  const { features, scatters } = combineRanges(width, docs, entries, postDocs, [merged]);
  for (const s of scatters) scatterKeyRange(s);
  return features;
}

/**
 * `mergeSlices` on worker threads (`run` runs an export of this module on one): the fingerprint
 * values are cut into `ranges` ranges of equal width (fingerprints are uniform hashes, so of about
 * equal entries), each merged on a thread (`mergeKeyRange`), then each range's ids written into
 * the documents' lists on a thread (`scatterKeyRange`). The slices' arrays must be shared
 * (`FingerprintSlicePayload.shared`): every thread reads its part of each. The same features as
 * `mergeSlices`, array for array.
 */
export async function mergeOnThreads(
  slices: readonly SortedSlice[],
  ranges: number,
  run: <T>(exportName: 'mergeKeyRange' | 'scatterKeyRange', payload: unknown) => Promise<T>,
): Promise<DocumentFeatures> {
  const width = slices[0]?.width ?? 2;
  const docs = slices.reduce((s, x) => s + x.docs, 0);
  const entries = slices.reduce((s, x) => s + x.owners.length, 0);
  const cuts = slices.map((x) => keyRangeCuts(x.keys, width, x.owners.length, ranges));
  const postDocs = sharedU32(entries);
  const payloads: MergeRangePayload[] = [];
  let at = 0;
  for (let r = 0; r < ranges; r++) {
    const parts = slices.map((x, i) => ({ keys: x.keys, owners: x.owners, from: cuts[i]![r]!, to: cuts[i]![r + 1]! }));
    payloads.push({ width, docs, parts, postDocs, at });
    at += parts.reduce((n, part) => n + part.to - part.from, 0);
  }
  const merged = await Promise.all(payloads.map((p) => run<MergedRange>('mergeKeyRange', p)));
  const { features, scatters } = combineRanges(width, docs, entries, postDocs, merged);
  await Promise.all(scatters.map((p) => run('scatterKeyRange', p)));
  return features;
}

/**
 * Where the sorted entries [0, n) cross into each of `ranges` equal ranges of the first key word:
 * `ranges + 1` offsets, from 0 to n. Equal keys share their first word, so they stay in one range.
 */
export function keyRangeCuts(keys: Uint32Array, width: number, n: number, ranges: number): number[] {
  const cuts = [0];
  for (let r = 1; r < ranges; r++) {
    const bound = Math.floor((r * 2 ** 32) / ranges);
    let lo = cuts[r - 1] as number;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid * width] as number) < bound) lo = mid + 1;
      else hi = mid;
    }
    cuts.push(lo);
  }
  cuts.push(n);
  return cuts;
}

/** Entries [from, to) of a sorted slice: the part of it that falls in one range of fingerprint values. */
export interface SlicePart {
  readonly keys: Uint32Array;
  readonly owners: Uint32Array;
  readonly from: number;
  readonly to: number;
}

export interface MergeRangePayload {
  readonly width: 2 | 4;
  readonly docs: number;
  /** one part a slice, in corpus order: equal fingerprints go to the lower document first */
  readonly parts: readonly SlicePart[];
  /** every entry's document, in fingerprint order (shared): this range writes [at, at + its entries) */
  readonly postDocs: Uint32Array;
  readonly at: number;
}

/** One range of fingerprint values merged: its distinct fingerprints, in order, with ids counted from 0. */
export interface MergedRange {
  readonly fingerprints: number;
  /** `width` words of each */
  readonly words: Uint32Array;
  /** where each one's postings start in `postDocs` */
  readonly postStart: Uint32Array;
  /** entries of each document in this range */
  readonly perDoc: Uint32Array;
}

/**
 * Merges the parts (a k-way merge on the fingerprint words, ties to the earlier part): writes
 * the entries' documents to `postDocs` from `at`, and gives each distinct fingerprint its
 * postings' start. Runs on a worker thread, or on the calling thread (`mergeSlices`).
 */
export function mergeKeyRange(p: MergeRangePayload): MergedRange {
  const { width, parts, postDocs } = p;
  const entries = parts.reduce((s, x) => s + (x.to - x.from), 0);
  const cursor = parts.map((x) => x.from);
  const postStart = new Uint32Array(entries);
  const words = new Uint32Array(Math.max(1, entries) * width);
  const perDoc = new Uint32Array(p.docs);
  let fingerprints = 0;
  // The head key of each part, cached as its first two words: most comparisons end there.
  const headHi = new Float64Array(parts.length).fill(Infinity);
  const headLo = new Float64Array(parts.length);
  const loadHead = (s: number): void => {
    const part = parts[s] as SlicePart;
    const i = cursor[s] as number;
    if (i >= part.to) {
      headHi[s] = Infinity;
      return;
    }
    headHi[s] = part.keys[i * width] as number;
    headLo[s] = part.keys[i * width + 1] as number;
  };
  for (let s = 0; s < parts.length; s++) loadHead(s);
  for (let n = 0; n < entries; n++) {
    let best = 0;
    for (let s = 1; s < parts.length; s++) {
      const h = headHi[s] as number;
      const bh = headHi[best] as number;
      if (h < bh || (h === bh && h !== Infinity && ((headLo[s] as number) < (headLo[best] as number) ||
        (headLo[s] === headLo[best] && width > 2 &&
          compareKeys((parts[s] as SlicePart).keys, cursor[s] as number, (parts[best] as SlicePart).keys, cursor[best] as number, width) < 0)))) {
        best = s;
      }
    }
    const part = parts[best] as SlicePart;
    const i = cursor[best] as number;
    cursor[best] = i + 1;
    if (fingerprints === 0 || !sameKey(part.keys, i, words, fingerprints - 1, width)) {
      for (let x = 0; x < width; x++) words[fingerprints * width + x] = part.keys[i * width + x] as number;
      postStart[fingerprints] = p.at + n;
      fingerprints++;
    }
    const d = part.owners[i] as number;
    postDocs[p.at + n] = d;
    perDoc[d] = (perDoc[d] as number) + 1;
    loadHead(best);
  }
  return { fingerprints, words: words.slice(0, fingerprints * width), postStart: postStart.slice(0, fingerprints), perDoc };
}

export interface ScatterRangePayload {
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  /** the range's ids: [idFrom, idTo) */
  readonly idFrom: number;
  readonly idTo: number;
  /** for each document, where its next id of this range goes in `ids` (this range's own copy, advanced here) */
  readonly fill: Uint32Array;
  readonly ids: Uint32Array;
  readonly entryPos: Uint32Array;
}

/** Writes one range's ids into the documents' lists (the postings transposed). */
export function scatterKeyRange(p: ScatterRangePayload): Record<string, never> {
  const { postStart, postDocs, fill, ids, entryPos } = p;
  for (let f = p.idFrom; f < p.idTo; f++) {
    const start = postStart[f] as number;
    const end = postStart[f + 1] as number;
    for (let q = start; q < end; q++) {
      const d = postDocs[q] as number;
      const to = fill[d] as number;
      fill[d] = to + 1;
      ids[to] = f;
      entryPos[to] = q - start;
    }
  }
  return {};
}

/**
 * The features of merged ranges (given in fingerprint order), all but the documents' lists, and
 * the scatters that fill those: a range's ids follow the ranges before it, and each document's
 * ids of a range follow its ids of the ranges before, so every list comes out ascending.
 */
export function combineRanges(
  width: 2 | 4,
  docs: number,
  entries: number,
  postDocs: Uint32Array,
  ranges: readonly MergedRange[],
): { features: DocumentFeatures; scatters: ScatterRangePayload[] } {
  const fingerprints = ranges.reduce((s, r) => s + r.fingerprints, 0);
  const postStart = sharedU32(fingerprints + 1);
  const words = new Uint32Array(fingerprints * width);
  let id = 0;
  for (const r of ranges) {
    postStart.set(r.postStart, id);
    words.set(r.words, id * width);
    id += r.fingerprints;
  }
  postStart[fingerprints] = entries;
  const docStart = sharedU32(docs + 1);
  for (const r of ranges) for (let d = 0; d < docs; d++) docStart[d + 1] = (docStart[d + 1] as number) + (r.perDoc[d] as number);
  for (let d = 0; d < docs; d++) docStart[d + 1] = (docStart[d + 1] as number) + (docStart[d] as number);
  const ids = sharedU32(entries);
  const entryPos = sharedU32(entries);
  // Where each document's next id goes: past its ids of the ranges before.
  const next = docStart.slice(0, docs);
  id = 0;
  const scatters = ranges.map((r): ScatterRangePayload => {
    const fill = sharedU32(docs);
    fill.set(next);
    for (let d = 0; d < docs; d++) next[d] = (next[d] as number) + (r.perDoc[d] as number);
    const idFrom = id;
    id += r.fingerprints;
    return { postStart, postDocs, idFrom, idTo: id, fill, ids, entryPos };
  });
  return { features: { width, docs, fingerprints, words, postStart, postDocs, docStart, ids, entryPos }, scatters };
}
