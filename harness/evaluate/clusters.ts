/**
 * Measures of a clustered output (docs/design.md §8.8): a detector that writes clusters (the
 * connected components of its pairs, or a pipeline's own clusters) removes all but one document
 * of each, so what counts is every pair inside a cluster (its induced pairs), not only the pairs
 * it verified; transitive closure can chain unrelated documents into one cluster, and these
 * measures show it. Against the ground truth at threshold t, with Dup = {p : G(p) ≥ t} and the
 * ground truth's components those of Dup:
 *
 * - `cluster_precision_pairs`, `cluster_recall_pairs`: induced pairs against Dup (eq. 3.8, 3.9)
 * - `cluster_precision_docs`, `cluster_recall_docs`: the thesis' document-level reading, the
 *   documents in a cluster of two or more against the documents of a pair of Dup
 * - `bcubed_precision`, `bcubed_recall`: B-cubed (Bagga and Baldwin 1998) over every document
 *   of the corpus, a document not clustered being a cluster of its own: for document d with
 *   cluster C(d) and ground-truth component T(d), precision |C(d) ∩ T(d)| / |C(d)| and recall
 *   |C(d) ∩ T(d)| / |T(d)|, averaged
 * - `docs_removed`: Σ (|C| − 1) over the clusters, one document kept of each;
 *   `docs_to_remove`: the same over the ground truth's components
 * - `largest_cluster`: the size of the largest cluster (1 when none holds two documents)
 * - `induced_pairs_below_threshold`: induced pairs whose ground-truth score is below t, what
 *   transitive closure (or a wrong decision) added
 *
 * The induced pairs are counted, never listed: a giant cluster of n documents has n(n−1)/2.
 */
import type { PairList } from '../../contract/index.ts';

export interface ClusterInput {
  readonly documents: number;
  /** each document's cluster label (any integer; the same label, the same cluster), −1: in none */
  readonly clusterOf: Int32Array;
  /** the ground truth's pairs (sorted or not) */
  readonly truth: PairList;
  readonly threshold: number;
}

export type ClusterMeasures = Record<
  | 'cluster_precision_pairs'
  | 'cluster_recall_pairs'
  | 'cluster_precision_docs'
  | 'cluster_recall_docs'
  | 'bcubed_precision'
  | 'bcubed_recall'
  | 'docs_removed'
  | 'docs_to_remove'
  | 'largest_cluster'
  | 'induced_pairs_below_threshold',
  number | null
>;

/** Union-find over document indexes, by size, with path halving. */
function components(n: number, a: Uint32Array, b: Uint32Array, keep: (i: number) => boolean): Int32Array {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const size = new Int32Array(n).fill(1);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x] as number] as number;
      x = parent[x] as number;
    }
    return x;
  };
  for (let i = 0; i < a.length; i++) {
    if (!keep(i)) continue;
    let x = find(a[i] as number);
    let y = find(b[i] as number);
    if (x === y) continue;
    if ((size[x] as number) < (size[y] as number)) [x, y] = [y, x];
    parent[y] = x;
    size[x] = (size[x] as number) + (size[y] as number);
  }
  for (let i = 0; i < n; i++) parent[i] = find(i);
  return parent;
}

/** Sizes of the groups of `label` (a document with label −1 is a group of its own, not counted here). */
function groupSizes(label: Int32Array): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const l of label) if (l >= 0) sizes.set(l, (sizes.get(l) ?? 0) + 1);
  return sizes;
}

const ratio = (x: number, y: number): number | null => (y === 0 ? null : x / y);

export function clusterMeasures(input: ClusterInput): ClusterMeasures {
  const { documents: n, clusterOf, truth, threshold } = input;
  const isDup = (i: number): boolean => (truth.score[i] as number) >= threshold;
  const truthOf = components(n, truth.a, truth.b, isDup);
  const clusterSize = groupSizes(clusterOf);
  const componentSize = groupSizes(truthOf);
  const sizeOfCluster = (d: number): number => (clusterOf[d] as number) < 0 ? 1 : (clusterSize.get(clusterOf[d] as number) as number);

  // Pairs: the induced pairs counted from the sizes, those of Dup inside a cluster from Dup.
  let induced = 0;
  for (const s of clusterSize.values()) induced += (s * (s - 1)) / 2;
  let dup = 0;
  let dupInside = 0;
  const dupDoc = new Uint8Array(n);
  for (let i = 0; i < truth.a.length; i++) {
    if (!isDup(i)) continue;
    const x = truth.a[i] as number;
    const y = truth.b[i] as number;
    dup++;
    dupDoc[x] = 1;
    dupDoc[y] = 1;
    if ((clusterOf[x] as number) >= 0 && clusterOf[x] === clusterOf[y]) dupInside++;
  }

  // Documents, B-cubed and removals.
  let clustered = 0;
  let clusteredDup = 0;
  let dupDocs = 0;
  let largest = 1;
  const overlap = new Map<string, number>();
  const key = (d: number): string => `${clusterOf[d]}:${truthOf[d]}`;
  for (let d = 0; d < n; d++) {
    const inCluster = sizeOfCluster(d) > 1;
    if (inCluster) {
      clustered++;
      if (dupDoc[d]) clusteredDup++;
      largest = Math.max(largest, sizeOfCluster(d));
      overlap.set(key(d), (overlap.get(key(d)) ?? 0) + 1);
    }
    if (dupDoc[d]) dupDocs++;
  }
  let precision = 0;
  let recall = 0;
  for (let d = 0; d < n; d++) {
    const c = sizeOfCluster(d);
    const t = componentSize.get(truthOf[d] as number) as number;
    // A document of no cluster shares its singleton with itself alone.
    const both = c > 1 ? (overlap.get(key(d)) as number) : 1;
    precision += both / c;
    recall += both / t;
  }
  let removed = 0;
  for (const s of clusterSize.values()) if (s > 1) removed += s - 1;
  let toRemove = 0;
  for (const s of componentSize.values()) toRemove += s - 1;
  return {
    cluster_precision_pairs: ratio(dupInside, induced),
    cluster_recall_pairs: ratio(dupInside, dup),
    cluster_precision_docs: ratio(clusteredDup, clustered),
    cluster_recall_docs: ratio(clusteredDup, dupDocs),
    bcubed_precision: ratio(precision, n),
    bcubed_recall: ratio(recall, n),
    docs_removed: removed,
    docs_to_remove: toRemove,
    largest_cluster: largest,
    induced_pairs_below_threshold: induced - dupInside,
  };
}

/** Each document's cluster from a clusters table (`doc → "cluster size"`, contract/plan.ts `PlanOutput.clusters`). */
export function clustersFromTable(records: readonly (readonly [string, string])[], documents: number): Int32Array {
  const clusterOf = new Int32Array(documents).fill(-1);
  for (const [doc, value] of records) {
    const d = Number(doc);
    const c = Number(value.split(' ')[0]);
    if (Number.isInteger(d) && d >= 0 && d < documents && Number.isInteger(c)) clusterOf[d] = c;
  }
  return clusterOf;
}
