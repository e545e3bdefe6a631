/**
 * Why a clustered variant put two documents in one cluster (issue 26): a cluster is the
 * closure of links (the pairs the detector decided), so two documents of one cluster are joined
 * by a chain of links, and the chain worth showing is the strongest one, the path between them
 * whose weakest link has the highest exact resemblance (the maximum-bottleneck path). Its
 * weakest link is where the closure went wrong, when it did: a cluster of unrelated documents
 * (marin #6854) shows the low link that joined them. Nothing here knows a detector.
 *
 * The path is found by a Dijkstra that keeps, for each document, the best bottleneck of a path
 * from A (the minimum along the path, maximized); ties go to fewer links, then to the smaller
 * document index, so that the chain is the same on every backend.
 *
 * The search is bounded (ChainBound): a link's weight is an exact resemblance, computed from
 * both documents' features, and a cluster of thousands of documents can hold millions of links.
 * It weighs at most `weights` distinct links and asks about at most `documents` distinct
 * documents; past either, it stops and shows the chain of fewest links instead (a breadth-first
 * search that weighs only the links of the chain it finds), marked as such. Its memory is the
 * cluster's links as two typed arrays (the adjacency), plus what the bound allows.
 */

/** What a chain's links are: the pairs the detector decided before closure, or (when they are not known) every pair inside the cluster. */
export type ChainLinks = 'decided pairs' | 'induced pairs';

export interface ChainLink {
  /** document indexes, in the order of the path */
  readonly from: number;
  readonly to: number;
  /** the link's exact resemblance */
  readonly resemblance: number;
  /** its place along the path from A, 1-based */
  readonly step: number;
}

export interface ClusterChain {
  /** documents of the cluster */
  readonly cluster_size: number;
  readonly made_of: ChainLinks;
  /** the documents from A to B */
  readonly path: readonly number[];
  /** the path's links, the weakest first (ties: in path order) */
  readonly links: readonly ChainLink[];
  /** the weakest link's exact resemblance: the highest any chain of these links reaches (when `bounded`, of this chain only) */
  readonly bottleneck: number;
  /** present when the search stopped at its bound: what it says about the chain shown */
  readonly bounded?: string;
}

/** How far a chain search goes before it settles for the chain of fewest links. */
export interface ChainBound {
  /** distinct links whose exact resemblance it computes */
  readonly weights: number;
  /** distinct documents it asks about (each one's features are computed and kept) */
  readonly documents: number;
}

/**
 * The bound of a run's chain searches: on the bundled mail a link's resemblance costs 20 to
 * 50 µs and a document's features about 0.4 ms, so a search that reaches it takes about a second
 * and keeps the features of 2,000 documents.
 */
export const CHAIN_BOUND: ChainBound = { weights: 20_000, documents: 2_000 };

export interface BottleneckQuestion {
  /** the links, as two columns of document indexes (either order) */
  readonly a: ArrayLike<number>;
  readonly b: ArrayLike<number>;
  /** the exact resemblance of a link (its weight) */
  weight(x: number, y: number): number;
  readonly from: number;
  readonly to: number;
  /** none: unbounded */
  readonly bound?: ChainBound;
}

/** A path from `from` to `to`: the documents along it and each link's weight in path order. */
export interface FoundPath {
  readonly path: number[];
  readonly weights: number[];
  /** the search stopped at its bound: the path of fewest links, not necessarily the strongest */
  readonly bounded?: true;
}

/** A binary max-heap of (bottleneck, hops, document), best first. */
class Frontier {
  private readonly items: [number, number, number][] = [];

  get size(): number {
    return this.items.length;
  }

  private static better(p: readonly [number, number, number], q: readonly [number, number, number]): boolean {
    return p[0] > q[0] || (p[0] === q[0] && (p[1] < q[1] || (p[1] === q[1] && p[2] < q[2])));
  }

  push(item: [number, number, number]): void {
    const h = this.items;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!Frontier.better(h[i] as [number, number, number], h[up] as [number, number, number])) break;
      [h[i], h[up]] = [h[up] as [number, number, number], h[i] as [number, number, number]];
      i = up;
    }
  }

  pop(): [number, number, number] {
    const h = this.items;
    const top = h[0] as [number, number, number];
    const last = h.pop() as [number, number, number];
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < h.length && Frontier.better(h[l] as [number, number, number], h[best] as [number, number, number])) best = l;
        if (r < h.length && Frontier.better(h[r] as [number, number, number], h[best] as [number, number, number])) best = r;
        if (best === i) break;
        [h[i], h[best]] = [h[best] as [number, number, number], h[i] as [number, number, number]];
        i = best;
      }
    }
    return top;
  }
}

/** The links as an adjacency (CSR), each document's neighbours ascending, whatever order the links came in. */
function adjacency(a: ArrayLike<number>, b: ArrayLike<number>): { readonly ids: Map<number, number>; readonly docs: number[]; readonly start: Uint32Array; readonly next: Uint32Array } {
  // Documents are numbered densely in order of first appearance; `docs` maps back.
  const ids = new Map<number, number>();
  const docs: number[] = [];
  const id = (x: number): number => {
    let i = ids.get(x);
    if (i === undefined) {
      ids.set(x, (i = docs.length));
      docs.push(x);
    }
    return i;
  };
  let links = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    id(a[i] as number);
    id(b[i] as number);
    links++;
  }
  const start = new Uint32Array(docs.length + 1);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    (start[(ids.get(a[i] as number) as number) + 1] as number)++;
    (start[(ids.get(b[i] as number) as number) + 1] as number)++;
  }
  for (let d = 0; d < docs.length; d++) start[d + 1] = (start[d + 1] as number) + (start[d] as number);
  const fill = start.slice(0, docs.length);
  const next = new Uint32Array(2 * links);
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x === y) continue;
    next[(fill[ids.get(x) as number] as number)++] = y;
    next[(fill[ids.get(y) as number] as number)++] = x;
  }
  for (let d = 0; d < docs.length; d++) next.subarray(start[d], start[d + 1]).sort();
  return { ids, docs, start, next };
}

/**
 * The maximum-bottleneck path from `from` to `to` over the links, as the documents along it and
 * each link's weight in path order; undefined when no chain of links joins them. With a bound:
 * past it, the path of fewest links (ties: the first found, neighbours taken in ascending order).
 */
export function bottleneckPath(q: BottleneckQuestion): FoundPath | undefined {
  const g = adjacency(q.a, q.b);
  const neighbours = (x: number): Uint32Array => {
    const i = g.ids.get(x);
    return i === undefined ? new Uint32Array(0) : g.next.subarray(g.start[i], g.start[i + 1]);
  };
  const bound = q.bound ?? { weights: Infinity, documents: Infinity };
  const asked = new Set<number>();
  let weighed = 0;
  let stopped = false;
  const best = new Map<number, { bottleneck: number; hops: number; prev: number; weight: number }>([[q.from, { bottleneck: Infinity, hops: 0, prev: -1, weight: Infinity }]]);
  const done = new Set<number>();
  const frontier = new Frontier();
  frontier.push([Infinity, 0, q.from]);
  search: while (frontier.size > 0) {
    const [bottleneck, hops, x] = frontier.pop();
    if (done.has(x)) continue;
    done.add(x);
    if (x === q.to) break;
    for (const y of neighbours(x)) {
      if (done.has(y)) continue;
      // Each link is weighed once: from x, whichever of its ends is done first.
      if (weighed + 1 > bound.weights || asked.size + (asked.has(x) ? 0 : 1) + (asked.has(y) ? 0 : 1) > bound.documents) {
        stopped = true;
        break search;
      }
      weighed++;
      asked.add(x);
      asked.add(y);
      const w = q.weight(x, y);
      const through = Math.min(bottleneck, w);
      const was = best.get(y);
      if (!was || through > was.bottleneck || (through === was.bottleneck && (hops + 1 < was.hops || (hops + 1 === was.hops && x < was.prev)))) {
        best.set(y, { bottleneck: through, hops: hops + 1, prev: x, weight: w });
        frontier.push([through, hops + 1, y]);
      }
    }
  }
  if (stopped) return fewestLinks(q, neighbours);
  if (!done.has(q.to) || q.from === q.to) return undefined;
  const path: number[] = [];
  const weights: number[] = [];
  for (let x = q.to; x !== q.from; ) {
    const b = best.get(x) as { prev: number; weight: number };
    path.push(x);
    weights.push(b.weight);
    x = b.prev;
  }
  path.push(q.from);
  return { path: path.reverse(), weights: weights.reverse() };
}

/** The path of fewest links (breadth first), weighing only its own links. */
function fewestLinks(q: BottleneckQuestion, neighbours: (x: number) => Uint32Array): FoundPath | undefined {
  const prev = new Map<number, number>([[q.from, -1]]);
  const queue = [q.from];
  for (let head = 0; head < queue.length && !prev.has(q.to); head++) {
    const x = queue[head] as number;
    for (const y of neighbours(x)) {
      if (prev.has(y)) continue;
      prev.set(y, x);
      queue.push(y);
    }
  }
  if (!prev.has(q.to) || q.from === q.to) return undefined;
  const path: number[] = [];
  for (let x = q.to; x !== -1; x = prev.get(x) as number) path.push(x);
  path.reverse();
  return { path, weights: path.slice(1).map((y, i) => q.weight(path[i] as number, y)), bounded: true };
}

export interface ChainQuestion {
  /** each document's cluster label, −1: in none */
  readonly clusterOf: Int32Array;
  /** the links the clusters were closed from (either order, any document) */
  readonly links: { readonly a: ArrayLike<number>; readonly b: ArrayLike<number> };
  readonly madeOf: ChainLinks;
  readonly a: number;
  readonly b: number;
  /** the exact resemblance of two documents */
  resemblance(x: number, y: number): number;
  /** default CHAIN_BOUND */
  readonly bound?: ChainBound;
}

/**
 * The chain that put `a` and `b` in one cluster, or undefined when they are in none together
 * (or no chain of the links joins them: clusters that are not the closure of these links).
 */
export function clusterChain(q: ChainQuestion): ClusterChain | undefined {
  const c = q.clusterOf[q.a] as number;
  if (c < 0 || q.clusterOf[q.b] !== c) return undefined;
  let size = 0;
  for (const l of q.clusterOf) if (l === c) size++;
  // Only the links inside the cluster can join two of its documents.
  const ia: number[] = [];
  const ib: number[] = [];
  for (let i = 0; i < q.links.a.length; i++) {
    const x = q.links.a[i] as number;
    const y = q.links.b[i] as number;
    if (q.clusterOf[x] === c && q.clusterOf[y] === c) {
      ia.push(x);
      ib.push(y);
    }
  }
  // Each link's resemblance is asked once (the weight of an edge is read from both ends).
  const seen = new Map<string, number>();
  const weight = (x: number, y: number): number => {
    const key = x < y ? `${x},${y}` : `${y},${x}`;
    let w = seen.get(key);
    if (w === undefined) {
      w = q.resemblance(Math.min(x, y), Math.max(x, y));
      seen.set(key, w);
    }
    return w;
  };
  const bound = q.bound ?? CHAIN_BOUND;
  const found = bottleneckPath({ a: ia, b: ib, weight, from: q.a, to: q.b, bound });
  if (!found) return undefined;
  const links = found.weights.map((w, i) => ({ from: found.path[i] as number, to: found.path[i + 1] as number, resemblance: w, step: i + 1 }));
  links.sort((x, y) => x.resemblance - y.resemblance || x.step - y.step);
  return {
    cluster_size: size,
    made_of: q.madeOf,
    path: found.path,
    links,
    bottleneck: (links[0] as ChainLink).resemblance,
    ...(found.bounded
      ? { bounded: `the search stopped at its bound (${bound.weights} links or ${bound.documents} documents weighed, of ${ia.length} links): this is the chain of fewest links, a stronger one may exist` }
      : {}),
  };
}
