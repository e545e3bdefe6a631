/**
 * What the kernel's worker threads run: document frequencies and fingerprints of a slice of the
 * corpus. The Hamming search's task is `searchTables` in `search.ts`.
 */
import { simhashInto } from './fingerprint.ts';
import { HashCounts, type HashCountArrays } from './hash-counts.ts';
import { FeatureWeigher, type WeightingOptions } from './weights.ts';

export interface SliceDfPayload {
  readonly texts: readonly string[];
  readonly options: WeightingOptions;
}

/** The slice's document frequencies by feature hash, packed as (hi, lo, df) triples. */
export function sliceDocumentFrequencies(p: SliceDfPayload): Uint32Array {
  const weigher = new FeatureWeigher(p.options, null);
  const counts = new HashCounts(1 << 14);
  for (const text of p.texts) {
    const f = weigher.distinct(text);
    for (let i = 0; i < f.count; i++) counts.add(f.hi[i] as number, f.lo[i] as number, 1);
  }
  return counts.entries();
}

export interface SliceFingerprintPayload {
  readonly texts: readonly string[];
  /** each document's meta, or null when the options use none */
  readonly metas: readonly (Readonly<Record<string, string>> | undefined)[] | null;
  readonly options: WeightingOptions;
  readonly df: HashCountArrays;
  readonly documents: number;
}

export interface SliceFingerprints {
  /** (hi, lo) per document of the slice */
  readonly words: Uint32Array;
  /** 1 where the document has a fingerprint */
  readonly has: Uint8Array;
}

/** Fingerprints of a slice, with the frozen df table shared by every worker. */
export function sliceFingerprints(p: SliceFingerprintPayload): SliceFingerprints {
  const table = HashCounts.over(p.df);
  const weigher = new FeatureWeigher(p.options, { documents: p.documents, get: (hi, lo) => table.get(hi, lo) });
  const n = p.texts.length;
  const words = new Uint32Array(2 * n);
  const has = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const f = weigher.weigh(p.texts[i] as string, p.metas?.[i]);
    has[i] = simhashInto(f.count, f.hi, f.lo, f.weight, words, 2 * i) ? 1 : 0;
  }
  return { words, has };
}
