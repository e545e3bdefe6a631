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

// The thesis' cluster statistics (§6.3, Figure 6-2, Table 6.2) computed from cluster sizes: the
// reference the adapter's measures, which come from counters, are checked against.

export interface ClusterStats {
  /** clusters counted: the documents included */
  readonly clusters: number;
  /** mean cluster size over all of them (Table 6.2 if the thesis averaged over every document) */
  readonly mean: number | null;
  /** clusters with at least one near-duplicate, and their mean size (Table 6.2's other reading) */
  readonly withDuplicates: number;
  readonly meanWithDuplicates: number | null;
  /** Figure 6-2: size → number of clusters of that size, ascending by size */
  readonly histogram: ReadonlyMap<number, number>;
}

/**
 * Statistics of the clusters of the documents `included` selects (those with a fingerprint:
 * a document without one leads no cluster). Means are null when nothing is counted.
 */
export function clusterStats(sizes: Uint32Array, included: (doc: number) => boolean = () => true): ClusterStats {
  const counts = new Map<number, number>();
  let clusters = 0;
  let total = 0;
  let dup = 0;
  let dupTotal = 0;
  for (let d = 0; d < sizes.length; d++) {
    if (!included(d)) continue;
    const s = sizes[d] as number;
    clusters++;
    total += s;
    if (s > 1) {
      dup++;
      dupTotal += s;
    }
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return {
    clusters,
    mean: clusters > 0 ? total / clusters : null,
    withDuplicates: dup,
    meanWithDuplicates: dup > 0 ? dupTotal / dup : null,
    histogram: new Map([...counts].sort((x, y) => x[0] - y[0])),
  };
}
