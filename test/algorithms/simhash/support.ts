/** Helpers for the simhash tests (not a test file). */
import { documentFrequencies } from '../../../algorithms/text/document-frequencies.ts';
import { hashFeature, hashSeeds } from '../../../algorithms/simhash/feature-hash.ts';
import { dfFromRecords } from '../../../algorithms/simhash/jobs.ts';
import { simhashParams } from '../../../algorithms/simhash/params.ts';
import { weightingOptions, type DfLookup, type WeightingOptions } from '../../../algorithms/simhash/weights.ts';

/** Weighting options from raw params, as a config would give them. */
export function options(raw: Record<string, unknown> = {}, seed = 0): WeightingOptions {
  return weightingOptions(simhashParams.parse(raw), seed);
}

/** A df lookup from documents given as normalized text (words = features). */
export function wordDf(docs: readonly string[], seed = 0): DfLookup {
  const t = documentFrequencies(docs.map((d) => d.split(' ')));
  return dfFromRecords([['', String(t.documents)], ...[...t.df].map(([w, n]) => [w, String(n)] as const)], hashSeeds(seed));
}

/** The 64-bit feature hash of a string as 16 hex digits. */
export function hashHex(s: string, seed = 0): string {
  const h = new Uint32Array(2);
  hashFeature(s, 0, s.length, hashSeeds(seed), h, 0);
  return (h[0] as number).toString(16).padStart(8, '0') + (h[1] as number).toString(16).padStart(8, '0');
}
