/**
 * Cluster sizes as the simhash thesis defines them (Seshasai 2009, §6.3, Figure 6-2 and
 * Table 6.2): every document leads one cluster, made of itself and every document the
 * detector calls its near-duplicate (here: every document it is paired with). Clusters are not
 * merged: if B and C are both within distance k of A they are in A's cluster even when they are
 * 2k apart, and 1000 documents with one identical fingerprint make 1000 clusters of size 1000.
 */

/** Each document's cluster size: 1 + the number of pairs it is in. */
export function clusterSizes(documents: number, pairs: { readonly a: ArrayLike<number>; readonly b: ArrayLike<number> }): Uint32Array {
  const sizes = new Uint32Array(documents).fill(1);
  for (let i = 0; i < pairs.a.length; i++) {
    const a = pairs.a[i] as number;
    const b = pairs.b[i] as number;
    sizes[a] = (sizes[a] as number) + 1;
    sizes[b] = (sizes[b] as number) + 1;
  }
  return sizes;
}

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
