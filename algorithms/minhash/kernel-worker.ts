/**
 * What the MinHash kernel runs on its worker threads: the signatures of a slice of the corpus,
 * and the LSH buckets of a range of bands. Pure functions of their payloads.
 */
import { sortRecords } from '../../kernels/sort/records.ts';
import { distinctFingerprints } from '../text/distinct.ts';
import { shingleFingerprints } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import type { FingerprintKind, ShingleSpec } from '../text/params.ts';
import { HashKernel } from './hash-kernel.ts';
import { reduceWords } from './mersenne.ts';
import { signatures, type SketchSpec } from './sketch.ts';

export interface SignatureSlicePayload {
  /** the texts of documents firstDoc, firstDoc + 1, … */
  readonly texts: readonly string[];
  readonly shingle: ShingleSpec;
  readonly fingerprint: FingerprintKind;
  readonly sketch: SketchSpec;
  /** also return each document's fingerprint set (for exact verification) */
  readonly keepSets: boolean;
}

export interface SignatureSlice {
  /** 2 words a slot, k slots per document (a document without fingerprints: unused) */
  readonly values: Uint32Array;
  /** distinct fingerprints per document */
  readonly sizes: Uint32Array;
  readonly densified: number;
  /** with keepSets: the distinct fingerprints of each document, `width` words each */
  readonly setWords?: Uint32Array;
}

let kernel: HashKernel | undefined;

/**
 * The signatures of a slice of the corpus, one document at a time as the signatures job's
 * mapper computes them: normalize, fingerprint the shingles, keep the distinct fingerprints,
 * reduce them mod p, and hash the whole slice in one WebAssembly call. Each document's residues
 * go straight into one buffer for the slice and its sets are dropped (unless kept for exact
 * verification): holding every document's set until the slice was done kept them past the
 * young generation, and the garbage collector's work grew with the slice.
 */
export function signatureSlice(p: SignatureSlicePayload): SignatureSlice {
  const n = p.texts.length;
  const sizes = new Uint32Array(n);
  const starts = new Uint32Array(n + 1);
  let residues = new Uint32Array(1 << 16);
  let total = 0;
  let width: 2 | 4 = 2;
  const kept: Uint32Array[] = [];
  for (let i = 0; i < n; i++) {
    const f = distinctFingerprints(shingleFingerprints(normalize(p.texts[i] as string), p.shingle, p.fingerprint));
    width = f.width;
    if (2 * (total + f.count) > residues.length) {
      const grown = new Uint32Array(Math.max(2 * residues.length, 2 * (total + f.count)));
      grown.set(residues.subarray(0, 2 * total));
      residues = grown;
    }
    for (let j = 0; j < f.count; j++) reduceWords(f.data, j * f.width, f.width, residues, 2 * (total + j));
    total += f.count;
    sizes[i] = f.count;
    starts[i + 1] = total;
    if (p.keepSets) kept.push(f.data);
  }
  const sig = signatures({ residues: residues.subarray(0, 2 * total), starts }, p.sketch, (kernel ??= new HashKernel()));
  if (!p.keepSets) return { values: sig.values, sizes, densified: sig.densified };
  const setWords = new Uint32Array(total * width);
  kept.forEach((data, i) => setWords.set(data, (starts[i] as number) * width));
  return { values: sig.values, sizes, densified: sig.densified, setWords };
}

export interface BandSlicePayload {
  /** 2 words a slot, k slots a document, every document */
  readonly values: Uint32Array;
  /** the documents that have a signature, ascending */
  readonly signed: Uint32Array;
  readonly k: number;
  readonly rows: number;
  readonly fromBand: number;
  readonly toBand: number;
}

export interface BandSlice {
  /** every pair (a < b) of every bucket of the bands, one entry per band it collided in */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  /** buckets holding two documents or more */
  readonly buckets: number;
}

/**
 * The buckets of bands [fromBand, toBand): documents sorted by a hash of their band's slots
 * (a stable radix sort, so documents of one hash stay ascending), a run of one hash whose slots
 * differ (a collision) then sorted by the slots themselves and the index, so that each bucket is
 * a run of equal slots with its documents ascending; each bucket gives its pairs as the bands
 * job's reducer does. (A comparison sort of every band took a third of the hashing's time.)
 */
export function bandSlice(p: BandSlicePayload): BandSlice {
  const { values, signed, k, rows } = p;
  const n = signed.length;
  const hash = new Uint32Array(n);
  const index = new Uint32Array(n);
  let cap = 1024;
  let outA = new Uint32Array(cap);
  let outB = new Uint32Array(cap);
  let m = 0;
  let buckets = 0;
  for (let band = p.fromBand; band < p.toBand; band++) {
    const first = band * rows;
    const at = (i: number): number => 2 * ((signed[i] as number) * k + first);
    for (let i = 0; i < n; i++) {
      const from = at(i);
      let h = 0x811c9dc5;
      for (let w = from; w < from + 2 * rows; w++) h = Math.imul(h ^ (values[w] as number), 0x01000193);
      hash[i] = h >>> 0;
      index[i] = i;
    }
    // the sort may reorder hash and index in place: both are filled again for the next band
    const sorted = sortRecords(hash, { width: 1, keyWords: 1, owners: index });
    const keys = sorted.records;
    const order = sorted.owners;
    const bySlots = (x: number, y: number): number => {
      const ax = at(x);
      const ay = at(y);
      for (let w = 0; w < 2 * rows; w++) {
        const u = values[ax + w] as number;
        const v = values[ay + w] as number;
        if (u !== v) return u - v;
      }
      return x - y;
    };
    for (let i = 0; i < n; ) {
      let j = i + 1;
      let same = true;
      while (j < n && keys[j] === keys[i]) {
        if (same && !sameBand(values, at(order[i] as number), at(order[j] as number), rows)) same = false;
        j++;
      }
      if (!same) order.subarray(i, j).sort(bySlots);
      i = j;
    }
    let i = 0;
    while (i < n) {
      let j = i + 1;
      while (j < n && sameBand(values, at(order[i] as number), at(order[j] as number), rows)) j++;
      if (j - i >= 2) {
        buckets++;
        const pairs = ((j - i) * (j - i - 1)) / 2;
        while (m + pairs > cap) {
          cap *= 2;
          const a2 = new Uint32Array(cap);
          a2.set(outA.subarray(0, m));
          outA = a2;
          const b2 = new Uint32Array(cap);
          b2.set(outB.subarray(0, m));
          outB = b2;
        }
        for (let x = i; x < j; x++) {
          const a = signed[order[x] as number] as number;
          for (let y = x + 1; y < j; y++) {
            outA[m] = a;
            outB[m] = signed[order[y] as number] as number;
            m++;
          }
        }
      }
      i = j;
    }
  }
  return { a: outA.slice(0, m), b: outB.slice(0, m), buckets };
}

function sameBand(values: Uint32Array, x: number, y: number, rows: number): boolean {
  for (let w = 0; w < 2 * rows; w++) if (values[x + w] !== values[y + w]) return false;
  return true;
}
