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
  /** the weakest link's exact resemblance: the highest any chain of these links reaches */
  readonly bottleneck: number;
}

export interface BottleneckQuestion {
  /** the links, as two columns of document indexes (either order) */
  readonly a: ArrayLike<number>;
  readonly b: ArrayLike<number>;
  /** the exact resemblance of a link (its weight) */
  weight(x: number, y: number): number;
  readonly from: number;
  readonly to: number;
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

/**
 * The maximum-bottleneck path from `from` to `to` over the links, as the documents along it and
 * each link's weight in path order; undefined when no chain of links joins them.
 */
export function bottleneckPath(q: BottleneckQuestion): { readonly path: number[]; readonly weights: number[] } | undefined {
  const next = new Map<number, number[]>();
  const link = (x: number, y: number): void => {
    const l = next.get(x);
    if (l) l.push(y);
    else next.set(x, [y]);
  };
  for (let i = 0; i < q.a.length; i++) {
    const x = q.a[i] as number;
    const y = q.b[i] as number;
    if (x === y) continue;
    link(x, y);
    link(y, x);
  }
  const best = new Map<number, { bottleneck: number; hops: number; prev: number; weight: number }>([[q.from, { bottleneck: Infinity, hops: 0, prev: -1, weight: Infinity }]]);
  const done = new Set<number>();
  const frontier = new Frontier();
  frontier.push([Infinity, 0, q.from]);
  while (frontier.size > 0) {
    const [bottleneck, hops, x] = frontier.pop();
    if (done.has(x)) continue;
    done.add(x);
    if (x === q.to) break;
    for (const y of next.get(x) ?? []) {
      if (done.has(y)) continue;
      const w = q.weight(x, y);
      const through = Math.min(bottleneck, w);
      const was = best.get(y);
      if (!was || through > was.bottleneck || (through === was.bottleneck && (hops + 1 < was.hops || (hops + 1 === was.hops && x < was.prev)))) {
        best.set(y, { bottleneck: through, hops: hops + 1, prev: x, weight: w });
        frontier.push([through, hops + 1, y]);
      }
    }
  }
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
  const found = bottleneckPath({ a: ia, b: ib, weight, from: q.a, to: q.b });
  if (!found) return undefined;
  const links = found.weights.map((w, i) => ({ from: found.path[i] as number, to: found.path[i + 1] as number, resemblance: w, step: i + 1 }));
  links.sort((x, y) => x.resemblance - y.resemblance || x.step - y.step);
  return { cluster_size: size, made_of: q.madeOf, path: found.path, links, bottleneck: (links[0] as ChainLink).resemblance };
}
