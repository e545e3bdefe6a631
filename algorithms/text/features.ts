/**
 * Document fingerprint sets as typed arrays, for the in-process kernel.
 *
 * Workers fingerprint contiguous slices of the corpus and radix-sort their (fingerprint,
 * document) entries (`fingerprintSlice`); the main thread merges the sorted slices
 * (`mergeSlices`), which gives every distinct fingerprint a dense id in fingerprint order and
 * its posting list (the documents holding it, ascending) in one linear pass. This is MR#1's
 * shuffle done as a sort, as Hadoop does it, instead of a hash table: sequential memory
 * traffic, half of it on the worker threads.
 */
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

/** Runs in a worker thread: normalizes, fingerprints and sorts one slice of the corpus. */
export function fingerprintSlice(p: FingerprintSlicePayload): SortedSlice {
  const width: 2 | 4 = p.kind === 'md5' ? 4 : 2;
  const parts: Uint32Array[] = [];
  let total = 0;
  for (const text of p.texts) {
    const fps = shingleFingerprints(normalize(text), p.shingle, p.kind);
    parts.push(fps.data.subarray(0, fps.count * width));
    total += fps.count;
  }
  let keys: Uint32Array = new Uint32Array(total * width);
  let owners: Uint32Array = new Uint32Array(total);
  let at = 0;
  parts.forEach((part, i) => {
    keys.set(part, at * width);
    owners.fill(p.firstDoc + i, at, at + part.length / width);
    at += part.length / width;
  });
  [keys, owners] = sortEntries(keys, owners, width);
  const n = dropRepeats(keys, owners, width);
  return { width, firstDoc: p.firstDoc, docs: p.texts.length, keys: keys.slice(0, n * width), owners: owners.slice(0, n) };
}

/**
 * Sorts entries by their key words, stably: equal fingerprints stay in document order, which
 * the merge relies on. Fingerprints are uniform hashes, so one pass by the top 16 bits leaves
 * buckets of a few entries each, which an insertion sort finishes: a quarter of the LSD radix
 * sort's traffic, which remains for slices too large for that.
 */
export function sortEntries(keys: Uint32Array, owners: Uint32Array, width: number): [Uint32Array, Uint32Array] {
  const n = owners.length;
  if (n > BUCKETS * 32) return lsdRadixSort(keys, owners, width);
  if (width === 2) return sortPairKeys(keys, owners);
  const k2 = new Uint32Array(keys.length);
  const o2 = new Uint32Array(n);
  const start = new Uint32Array(BUCKETS + 1);
  for (let i = 0; i < n; i++) start[((keys[i * width] as number) >>> 16) + 1]!++;
  for (let d = 1; d <= BUCKETS; d++) start[d]! += start[d - 1]!;
  const fill = start.slice(0, BUCKETS);
  for (let i = 0; i < n; i++) {
    const to = fill[(keys[i * width] as number) >>> 16]!++;
    for (let w = 0; w < width; w++) k2[to * width + w] = keys[i * width + w] as number;
    o2[to] = owners[i] as number;
  }
  for (let d = 0; d < BUCKETS; d++) {
    const from = start[d] as number;
    const to = start[d + 1] as number;
    if (to - from > 1) sortBucket(k2, o2, width, from, to);
  }
  return [k2, o2];
}

const BUCKETS = 65536;

/**
 * `sortEntries` for two-word keys (rabin64, the default fingerprint), with the words compared
 * inline instead of through `compareKeys`: 40% less time over the bundled corpus's entries (100-
 * 160 against 60-77 ms for 650,000 entries, one thread), the same order. A bucket of more than 64
 * entries that is not in order already goes to `sortBucket`.
 */
function sortPairKeys(keys: Uint32Array, owners: Uint32Array): [Uint32Array, Uint32Array] {
  const n = owners.length;
  const k2 = new Uint32Array(keys.length);
  const o2 = new Uint32Array(n);
  const start = new Uint32Array(BUCKETS + 1);
  for (let i = 0; i < n; i++) start[((keys[2 * i] as number) >>> 16) + 1]!++;
  for (let d = 1; d <= BUCKETS; d++) start[d]! += start[d - 1]!;
  const fill = start.slice(0, BUCKETS);
  for (let i = 0; i < n; i++) {
    const hi = keys[2 * i] as number;
    const to = fill[hi >>> 16]!++;
    k2[2 * to] = hi;
    k2[2 * to + 1] = keys[2 * i + 1] as number;
    o2[to] = owners[i] as number;
  }
  for (let d = 0; d < BUCKETS; d++) {
    const from = start[d] as number;
    const to = start[d + 1] as number;
    if (to - from > 64 && !inOrder(k2, from, to)) sortBucket(k2, o2, 2, from, to);
    else if (to - from > 1) insertionSortPairKeys(k2, o2, from, to);
  }
  return [k2, o2];
}

function inOrder(keys: Uint32Array, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const p = keys[2 * i - 2] as number;
    const q = keys[2 * i] as number;
    if (p > q || (p === q && (keys[2 * i - 1] as number) > (keys[2 * i + 1] as number))) return false;
  }
  return true;
}

/** Stable: an entry moves only past greater keys. */
function insertionSortPairKeys(keys: Uint32Array, owners: Uint32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const hi = keys[2 * i] as number;
    const lo = keys[2 * i + 1] as number;
    const ph = keys[2 * i - 2] as number;
    if (ph < hi || (ph === hi && (keys[2 * i - 1] as number) <= lo)) continue;
    const owner = owners[i] as number;
    let j = i;
    while (j > from) {
      const qh = keys[2 * j - 2] as number;
      const ql = keys[2 * j - 1] as number;
      if (qh < hi || (qh === hi && ql <= lo)) break;
      keys[2 * j] = qh;
      keys[2 * j + 1] = ql;
      owners[j] = owners[j - 1] as number;
      j--;
    }
    keys[2 * j] = hi;
    keys[2 * j + 1] = lo;
    owners[j] = owner;
  }
}

/** A stable sort of entries [from, to) by key: insertion for the few entries a bucket holds, a merge sort past that. */
function sortBucket(keys: Uint32Array, owners: Uint32Array, width: number, from: number, to: number): void {
  if (to - from > 64) {
    const order = Array.from({ length: to - from }, (_, i) => from + i).sort((i, j) => compareKeys(keys, i, keys, j, width) || i - j);
    const k = keys.slice(from * width, to * width);
    const o = owners.slice(from, to);
    order.forEach((src, i) => {
      for (let w = 0; w < width; w++) keys[(from + i) * width + w] = k[(src - from) * width + w] as number;
      owners[from + i] = o[src - from] as number;
    });
    return;
  }
  const key = new Uint32Array(width);
  for (let i = from + 1; i < to; i++) {
    if (compareKeys(keys, i - 1, keys, i, width) <= 0) continue;
    for (let w = 0; w < width; w++) key[w] = keys[i * width + w] as number;
    const owner = owners[i] as number;
    let j = i;
    while (j > from && compareKeys(keys, j - 1, key, 0, width) > 0) {
      for (let w = 0; w < width; w++) keys[j * width + w] = keys[(j - 1) * width + w] as number;
      owners[j] = owners[j - 1] as number;
      j--;
    }
    for (let w = 0; w < width; w++) keys[j * width + w] = key[w] as number;
    owners[j] = owner;
  }
}

/** Stable LSD radix sort of entries by their key words, 16 bits a pass, least significant first. */
function lsdRadixSort(keys: Uint32Array, owners: Uint32Array, width: number): [Uint32Array, Uint32Array] {
  const n = owners.length;
  let k = keys;
  let o = owners;
  let k2: Uint32Array = new Uint32Array(k.length);
  let o2: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(65536);
  for (let word = width - 1; word >= 0; word--) {
    for (let shift = 0; shift < 32; shift += 16) {
      count.fill(0);
      for (let i = 0; i < n; i++) {
        const digit = ((k[i * width + word] as number) >>> shift) & 0xffff;
        count[digit] = (count[digit] as number) + 1;
      }
      let sum = 0;
      for (let d = 0; d < 65536; d++) {
        const c = count[d] as number;
        count[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const digit = ((k[i * width + word] as number) >>> shift) & 0xffff;
        const to = count[digit] as number;
        count[digit] = to + 1;
        for (let w = 0; w < width; w++) k2[to * width + w] = k[i * width + w] as number;
        o2[to] = o[i] as number;
      }
      [k, k2] = [k2, k];
      [o, o2] = [o2, o];
    }
  }
  return [k, o];
}

/** A document is the *set* of its fingerprints: drop an entry equal to the one before it. */
function dropRepeats(keys: Uint32Array, owners: Uint32Array, width: number): number {
  let w = 0;
  for (let r = 0; r < owners.length; r++) {
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

/** -1, 0, 1 as key i of a compares with key j of b. */
function compareKeys(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): number {
  for (let x = 0; x < width; x++) {
    const p = a[i * width + x] as number;
    const q = b[j * width + x] as number;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
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
 * postings, and derives the per-document lists from them. All arrays live on
 * SharedArrayBuffers, so the join's worker threads read them without copies.
 */
export function mergeSlices(slices: readonly SortedSlice[]): DocumentFeatures {
  const width = slices[0]?.width ?? 2;
  const docs = slices.reduce((s, x) => s + x.docs, 0);
  const entries = slices.reduce((s, x) => s + x.owners.length, 0);
  const cursor = slices.map(() => 0);
  const postDocs = sharedU32(entries);
  const postStartTmp = new Uint32Array(entries + 1);
  const wordsTmp = new Uint32Array(Math.max(1, entries) * width);
  let fingerprints = 0;
  // The head key of each slice, cached as its first two words: most comparisons end there.
  const headHi = new Float64Array(slices.length).fill(Infinity);
  const headLo = new Float64Array(slices.length);
  const loadHead = (s: number): void => {
    const sl = slices[s] as SortedSlice;
    const i = cursor[s] as number;
    if (i >= sl.owners.length) {
      headHi[s] = Infinity;
      return;
    }
    headHi[s] = sl.keys[i * width] as number;
    headLo[s] = sl.keys[i * width + 1] as number;
  };
  for (let s = 0; s < slices.length; s++) loadHead(s);
  for (let at = 0; at < entries; at++) {
    let best = 0;
    for (let s = 1; s < slices.length; s++) {
      const h = headHi[s] as number;
      const bh = headHi[best] as number;
      if (h < bh || (h === bh && h !== Infinity && ((headLo[s] as number) < (headLo[best] as number) ||
        (headLo[s] === headLo[best] && width > 2 &&
          compareKeys((slices[s] as SortedSlice).keys, cursor[s] as number, (slices[best] as SortedSlice).keys, cursor[best] as number, width) < 0)))) {
        best = s;
      }
    }
    const sl = slices[best] as SortedSlice;
    const i = cursor[best] as number;
    cursor[best] = i + 1;
    if (fingerprints === 0 || !sameKey(sl.keys, i, wordsTmp, fingerprints - 1, width)) {
      for (let x = 0; x < width; x++) wordsTmp[fingerprints * width + x] = sl.keys[i * width + x] as number;
      postStartTmp[fingerprints] = at;
      fingerprints++;
    }
    postDocs[at] = sl.owners[i] as number;
    loadHead(best);
  }
  const postStart = sharedU32(fingerprints + 1);
  postStart.set(postStartTmp.subarray(0, fingerprints));
  postStart[fingerprints] = entries;

  const docStart = sharedU32(docs + 1);
  for (let e = 0; e < entries; e++) {
    const d = (postDocs[e] as number) + 1;
    docStart[d] = (docStart[d] as number) + 1;
  }
  for (let d = 0; d < docs; d++) docStart[d + 1] = (docStart[d + 1] as number) + (docStart[d] as number);
  const fill = docStart.slice(0, docs);
  const ids = sharedU32(entries);
  const entryPos = sharedU32(entries);
  for (let f = 0; f < fingerprints; f++) {
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
  return {
    width,
    docs,
    fingerprints,
    words: wordsTmp.slice(0, fingerprints * width),
    postStart,
    postDocs,
    docStart,
    ids,
    entryPos,
  };
}
