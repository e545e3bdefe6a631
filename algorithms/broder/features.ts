/**
 * Document fingerprint sets as typed arrays, for the in-process kernel.
 *
 * Workers fingerprint slices of the corpus (`fingerprintSlice`); the main thread then gives every
 * distinct fingerprint a dense id in first-seen order (`buildDictionary`), so that everything
 * after that — sampling, postings, the join — works on small integers instead of 64/128-bit values.
 */
import { normalize } from '../text/normalize.ts';
import { shingleFingerprints } from '../text/fingerprint.ts';
import type { FingerprintKind, ShingleSpec } from '../text/params.ts';

export interface SliceFingerprints {
  readonly width: 2 | 4;
  /** per document of the slice: start of its fingerprints in `data` (in fingerprints), length docs + 1 */
  readonly offsets: Uint32Array;
  /** `width` words per fingerprint, duplicates within a document kept */
  readonly data: Uint32Array;
}

export interface FingerprintSlicePayload {
  readonly texts: readonly string[];
  readonly shingle: ShingleSpec;
  readonly kind: FingerprintKind;
}

/** Runs in a worker thread: normalizes and fingerprints each text. */
export function fingerprintSlice(p: FingerprintSlicePayload): SliceFingerprints {
  const width: 2 | 4 = p.kind === 'md5' ? 4 : 2;
  const offsets = new Uint32Array(p.texts.length + 1);
  const parts: Uint32Array[] = [];
  let total = 0;
  for (let i = 0; i < p.texts.length; i++) {
    const fps = shingleFingerprints(normalize(p.texts[i] as string), p.shingle, p.kind);
    parts.push(fps.data.subarray(0, fps.count * width));
    total += fps.count;
    offsets[i + 1] = total;
  }
  const data = new Uint32Array(total * width);
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  return { width, offsets, data };
}

/** Every document as the sorted set of its fingerprint ids. */
export interface DocumentFeatures {
  readonly width: 2 | 4;
  readonly docs: number;
  /** CSR over documents: ids of document d are `ids[docStart[d] .. docStart[d+1])`, distinct, in first-seen order */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  /** number of distinct fingerprints in the collection */
  readonly fingerprints: number;
  /** `width` words of each fingerprint id, for sampling by value */
  readonly words: Uint32Array;
  /** documents containing each fingerprint id (its document frequency) */
  readonly df: Uint32Array;
}

/**
 * Assigns dense ids with an open-addressing hash table that keeps the fingerprint words in its
 * slots (one cache miss per lookup). Ids follow first appearance in document order, so they are
 * the same on every run. A document's repeats are dropped with a last-seen marker per id
 * rather than a sort: the join needs each document's ids once, not in order.
 */
export function buildDictionary(slices: readonly SliceFingerprints[]): DocumentFeatures {
  const width = slices[0]?.width ?? 2;
  let docs = 0;
  let entries = 0;
  for (const s of slices) {
    docs += s.offsets.length - 1;
    entries += s.data.length / width;
  }
  let capacity = 1024;
  while (capacity < entries * 2) capacity *= 2;
  const mask = capacity - 1;
  const slotId = new Int32Array(capacity).fill(-1);
  const slotWords = new Uint32Array(capacity * width);
  const idSlot = new Uint32Array(entries);
  const lastDoc = new Int32Array(entries).fill(-1);
  let fingerprints = 0;

  const docStart = new Uint32Array(docs + 1);
  const ids = new Uint32Array(entries);
  let d = 0;
  let at = 0;
  for (const s of slices) {
    const { data, offsets } = s;
    for (let local = 0; local < offsets.length - 1; local++) {
      const end = offsets[local + 1] as number;
      for (let e = offsets[local] as number; e < end; e++) {
        const base = e * width;
        const w0 = data[base] as number;
        const w1 = data[base + 1] as number;
        // Rabin and MD5 output bits are well mixed already; one multiply spreads them over the slots.
        const h = Math.imul(w0 ^ Math.imul(w1, 0x85ebca6b), 0x9e3779b1);
        let slot = (h ^ (h >>> 15)) & mask;
        let id: number;
        for (;;) {
          id = slotId[slot] as number;
          if (id < 0) {
            id = fingerprints++;
            slotId[slot] = id;
            idSlot[id] = slot;
            for (let w = 0; w < width; w++) slotWords[slot * width + w] = data[base + w] as number;
            break;
          }
          const sw = slot * width;
          if (slotWords[sw] === w0 && slotWords[sw + 1] === w1 && (width === 2 || sameTail(slotWords, sw, data, base, width))) break;
          slot = (slot + 1) & mask;
        }
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          ids[at++] = id;
        }
      }
      docStart[++d] = at;
    }
  }
  const words = new Uint32Array(fingerprints * width);
  for (let id = 0; id < fingerprints; id++) {
    const sw = (idSlot[id] as number) * width;
    for (let w = 0; w < width; w++) words[id * width + w] = slotWords[sw + w] as number;
  }
  const df = new Uint32Array(fingerprints);
  for (let e = 0; e < at; e++) {
    const id = ids[e] as number;
    df[id] = (df[id] as number) + 1;
  }
  return { width, docs, docStart, ids: ids.slice(0, at), fingerprints, words, df };
}

function sameTail(a: Uint32Array, ai: number, b: Uint32Array, bi: number, width: number): boolean {
  for (let w = 2; w < width; w++) if (a[ai + w] !== b[bi + w]) return false;
  return true;
}
