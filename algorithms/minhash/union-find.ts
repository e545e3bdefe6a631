/**
 * Clusters of near-duplicates: the connected components of the pairs a detector decided on,
 * each named by its smallest document index (a name that does not depend on the order in which
 * pairs arrive, so every backend names a cluster alike).
 */

export interface Clusters {
  /** per document: the smallest document index of its component (itself when alone) */
  readonly cluster: Uint32Array;
  /** per document: the number of documents in its component */
  readonly size: Uint32Array;
}

/** Components of n documents joined by the pairs (a[i], b[i]); union by smaller root. */
export function clustersOf(n: number, a: ArrayLike<number>, b: ArrayLike<number>): Clusters {
  const parent = new Uint32Array(n);
  for (let d = 0; d < n; d++) parent[d] = d;
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r] as number;
    // path compression
    while (parent[x] !== r) {
      const next = parent[x] as number;
      parent[x] = r;
      x = next;
    }
    return r;
  };
  for (let i = 0; i < a.length; i++) {
    const x = find(a[i] as number);
    const y = find(b[i] as number);
    // the smaller index becomes the root, so a root is always its component's least document
    if (x < y) parent[y] = x;
    else if (y < x) parent[x] = y;
  }
  const cluster = new Uint32Array(n);
  const size = new Uint32Array(n);
  for (let d = 0; d < n; d++) {
    const r = find(d);
    cluster[d] = r;
    size[r] = (size[r] as number) + 1;
  }
  for (let d = 0; d < n; d++) size[d] = size[cluster[d] as number] as number;
  return { cluster, size };
}
