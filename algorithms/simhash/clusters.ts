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
