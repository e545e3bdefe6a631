/**
 * How many documents of a collection hold given fingerprints (distinct, as hex): Broder's SCT
 * and PPJoin's token order, for explanations (contract/explain.ts) of one pair.
 */
import type { DocumentSet, ExplainContext } from '../../contract/index.ts';
import { featuresCodec } from './corpus-features.ts';
import { fingerprintSlice, mergeSlices, type DocumentFeatures } from './features.ts';
import { fingerprintHex, shingleFingerprints } from './fingerprint.ts';
import { normalize } from './normalize.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';

/**
 * How many documents of the collection hold each of `keys` (distinct fingerprints): their
 * posting lists' lengths in the fingerprint features an earlier run kept (corpus-features.ts).
 * Without them: for the explanations of a run (a shared cache), the features computed once, in
 * one pass over the collection, for every pair of the run (a pass for each pair would fingerprint
 * the collection hundreds of times); for one pair, one pass that counts only `keys`.
 */
export function documentCounts(ctx: Pick<ExplainContext, 'docs' | 'storedIfAny' | 'cached'>, shingle: ShingleSpec, kind: FingerprintKind, keys: readonly string[]): Map<string, number> {
  const codec = featuresCodec(shingle, kind);
  const kept = ctx.storedIfAny?.(codec) ?? (ctx.cached ? ctx.cached(`features-by-pass:${codec.key}`, () => featuresByPass(ctx.docs, shingle, kind)) : undefined);
  if (!kept) return countsByPass(ctx.docs, shingle, kind, keys);
  // Counts already looked up for an earlier pair of the same run are reused.
  const known = ctx.cached ? ctx.cached(`document-counts:${codec.key}`, () => new Map<string, number>()) : new Map<string, number>();
  const missing = keys.filter((k) => !known.has(k));
  for (const [k, n] of countsFromFeatures(kept, missing)) known.set(k, n);
  return new Map(keys.map((k) => [k, known.get(k) as number]));
}

/** The collection's fingerprint features, computed here, on this thread (corpus-features.ts computes them on the kernel's). */
export function featuresByPass(docs: DocumentSet, shingle: ShingleSpec, kind: FingerprintKind): DocumentFeatures {
  return mergeSlices([fingerprintSlice({ texts: docs.texts, firstDoc: 0, shingle, kind })]);
}

/** The length of each key's posting list, found by binary search over the ids' words (ascending fingerprint order). */
export function countsFromFeatures(f: DocumentFeatures, keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const w = f.width;
  for (const key of keys) {
    const words = Array.from({ length: w }, (_, k) => parseInt(key.slice(8 * k, 8 * k + 8), 16));
    let lo = 0;
    let hi = f.fingerprints;
    let found = -1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      let c = 0;
      for (let k = 0; k < w && c === 0; k++) c = (f.words[mid * w + k] as number) - (words[k] as number);
      if (c === 0) {
        found = mid;
        break;
      }
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    counts.set(key, found < 0 ? 0 : (f.postStart[found + 1] as number) - (f.postStart[found] as number));
  }
  return counts;
}

/** One pass that fingerprints every document, turning into hex only fingerprints whose first word is that of a key. */
export function countsByPass(docs: DocumentSet, shingle: ShingleSpec, kind: FingerprintKind, keys: readonly string[]): Map<string, number> {
  const counts = new Map(keys.map((k) => [k, 0]));
  const firstWords = new Set(keys.map((k) => parseInt(k.slice(0, 8), 16)));
  for (const text of docs.texts) {
    const fps = shingleFingerprints(normalize(text), shingle, kind);
    const seen = new Set<string>();
    for (let k = 0; k < fps.count; k++) {
      if (!firstWords.has(fps.data[k * fps.width] as number)) continue;
      const key = fingerprintHex(fps.data, k, fps.width);
      if (counts.has(key)) seen.add(key);
    }
    for (const key of seen) counts.set(key, (counts.get(key) as number) + 1);
  }
  return counts;
}

