import { describe, expect, it } from 'vitest';
import { bottleneckPath, clusterChain } from '../../../../harness/evaluate/explain/chain.ts';

/**
 * A cluster of five documents closed from five links (weights by hand):
 *
 *   0 ─0.2─ 3        the shortest path 0–3 is the direct link, bottleneck 0.2
 *   │       │
 *  0.9     0.8       the strongest is 0–1–2–3, bottleneck min(0.9, 0.7, 0.8) = 0.7
 *   │       │
 *   1 ─0.7─ 2        and 0–4–3 has bottleneck min(0.95, 0.6) = 0.6
 *   0 ─0.95─ 4 ─0.6─ 3
 */
const weights = new Map([
  ['0,3', 0.2],
  ['0,1', 0.9],
  ['1,2', 0.7],
  ['2,3', 0.8],
  ['0,4', 0.95],
  ['3,4', 0.6],
]);
const weight = (x: number, y: number): number => weights.get(x < y ? `${x},${y}` : `${y},${x}`) as number;
const links = { a: [0, 0, 1, 3, 0, 4], b: [3, 1, 2, 2, 4, 3] };

describe('bottleneckPath', () => {
  it('takes the path whose weakest link is strongest, not the shortest', () => {
    expect(bottleneckPath({ ...links, weight, from: 0, to: 3 })).toEqual({ path: [0, 1, 2, 3], weights: [0.9, 0.7, 0.8] });
  });

  it('takes the direct link when it is the strongest chain', () => {
    expect(bottleneckPath({ ...links, weight, from: 0, to: 1 })).toEqual({ path: [0, 1], weights: [0.9] });
  });

  it('prefers fewer links among chains of equal bottleneck', () => {
    // 0–1–2 and 0–2 both have bottleneck 0.5
    const w = (x: number, y: number): number => (x + y === 2 ? 0.5 : x + y === 1 ? 0.9 : 0.5);
    expect(bottleneckPath({ a: [0, 1, 0], b: [1, 2, 2], weight: w, from: 0, to: 2 })).toEqual({ path: [0, 2], weights: [0.5] });
  });

  it('finds no chain between documents the links do not join', () => {
    expect(bottleneckPath({ a: [0, 2], b: [1, 3], weight: () => 1, from: 0, to: 3 })).toBeUndefined();
  });
});

describe('clusterChain', () => {
  const clusterOf = Int32Array.from([7, 7, 7, 7, 7, 9, 9, -1]);
  const q = { clusterOf, links: { a: [...links.a, 5], b: [...links.b, 6] }, madeOf: 'decided pairs' as const, resemblance: weight };

  it('lists the links of the strongest chain weakest first, with their place along it', () => {
    expect(clusterChain({ ...q, a: 0, b: 3 })).toEqual({
      cluster_size: 5,
      made_of: 'decided pairs',
      path: [0, 1, 2, 3],
      links: [
        { from: 1, to: 2, resemblance: 0.7, step: 2 },
        { from: 2, to: 3, resemblance: 0.8, step: 3 },
        { from: 0, to: 1, resemblance: 0.9, step: 1 },
      ],
      bottleneck: 0.7,
    });
  });

  it('gives no chain for documents of two clusters or of none', () => {
    expect(clusterChain({ ...q, a: 0, b: 5 })).toBeUndefined();
    expect(clusterChain({ ...q, a: 6, b: 7 })).toBeUndefined();
  });

  it('asks the resemblance of a link with the smaller document first, once a link', () => {
    const asked: string[] = [];
    clusterChain({ ...q, a: 3, b: 0, resemblance: (x, y) => (asked.push(`${x},${y}`), weight(x, y)) });
    expect(asked.every((k) => Number(k.split(',')[0]) < Number(k.split(',')[1]))).toBe(true);
    expect(new Set(asked).size).toBe(asked.length);
  });
});

/** A deterministic weight in (0, 1) for a link, from its two documents (any order). */
function hashedWeight(x: number, y: number): number {
  const [lo, hi] = x < y ? [x, y] : [y, x];
  let h = Math.imul(lo + 1, 0x9e3779b1) ^ Math.imul(hi + 7, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  return ((h % 9999) + 1) / 10000;
}

/** The best bottleneck from `from` to `to`, by a second method: the links strongest first, joined (union-find) until the two meet. */
function kruskalBottleneck(a: readonly number[], b: readonly number[], weight: (x: number, y: number) => number, from: number, to: number): number | undefined {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    while ((parent.get(x) ?? x) !== x) x = parent.get(x) as number;
    return x;
  };
  const order = a.map((_, i) => i).sort((i, j) => weight(a[j] as number, b[j] as number) - weight(a[i] as number, b[i] as number));
  for (const i of order) {
    parent.set(find(a[i] as number), find(b[i] as number));
    if (find(from) === find(to)) return weight(a[i] as number, b[i] as number);
  }
  return undefined;
}

describe('chain search bound', () => {
  it('within its bound, finds the strongest chain of a random cluster, as the strongest-first union of its links does', () => {
    // 150 documents, 1,500 random links among them (and a path through all, so that all are one cluster)
    const n = 150;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 1; i < n; i++) {
      a.push(i - 1);
      b.push(i);
    }
    let s = 12345;
    while (a.length < 1500) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const x = s % n;
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const y = s % n;
      if (x !== y) {
        a.push(x);
        b.push(y);
      }
    }
    const clusterOf = new Int32Array(n);
    for (const [from, to] of [[0, 149], [3, 77], [140, 2], [60, 61]] as const) {
      const found = clusterChain({ clusterOf, links: { a, b }, madeOf: 'induced pairs', a: Math.min(from, to), b: Math.max(from, to), resemblance: hashedWeight, bound: { weights: 5000, documents: 1000 } });
      expect(found?.bounded).toBeUndefined();
      expect(found?.bottleneck).toBe(kruskalBottleneck(a, b, hashedWeight, from, to));
      // the path is made of links, and its weakest is the bottleneck
      const path = found?.path as number[];
      const linked = new Set(a.map((x, i) => `${Math.min(x, b[i] as number)},${Math.max(x, b[i] as number)}`));
      for (let i = 1; i < path.length; i++) expect(linked.has(`${Math.min(path[i - 1] as number, path[i] as number)},${Math.max(path[i - 1] as number, path[i] as number)}`)).toBe(true);
      expect(Math.min(...path.slice(1).map((y, i) => hashedWeight(path[i] as number, y)))).toBe(found?.bottleneck);
    }
  });

  it('stops at its bound in a cluster of 2,000 documents and 2 million induced links, and says so', () => {
    const n = 2000;
    const links = n * (n - 1) / 2;
    const a = new Uint32Array(links);
    const b = new Uint32Array(links);
    let k = 0;
    for (let x = 0; x < n; x++) {
      for (let y = x + 1; y < n; y++) {
        a[k] = x;
        b[k++] = y;
      }
    }
    let weighed = 0;
    const asked = new Set<number>();
    const resemblance = (x: number, y: number): number => {
      weighed++;
      asked.add(x).add(y);
      return hashedWeight(x, y);
    };
    const bound = { weights: 20_000, documents: 2_000 };
    const found = clusterChain({ clusterOf: new Int32Array(n), links: { a, b }, madeOf: 'induced pairs', a: 5, b: 1999, resemblance, bound });
    expect(found?.bounded).toMatch(/^the search stopped at its bound \(20000 links or 2000 documents weighed, of 1999000 links\): this is the chain of fewest links/);
    // every pair is a link: the fewest links is the direct one, weighed beside the bound's
    expect(found?.path).toEqual([5, 1999]);
    expect(found?.bottleneck).toBe(hashedWeight(5, 1999));
    expect(weighed).toBeLessThanOrEqual(bound.weights + 1);
    expect(asked.size).toBeLessThanOrEqual(bound.documents);
  });

  it('stops at the documents bound before the links bound', () => {
    // a path of 50 documents: the strongest chain from 0 to 49 asks about all 50
    const a = Array.from({ length: 49 }, (_, i) => i);
    const b = a.map((i) => i + 1);
    const q = { clusterOf: new Int32Array(50), links: { a, b }, madeOf: 'decided pairs' as const, a: 0, b: 49, resemblance: hashedWeight };
    expect(clusterChain({ ...q, bound: { weights: 1000, documents: 50 } })?.bounded).toBeUndefined();
    const bounded = clusterChain({ ...q, bound: { weights: 1000, documents: 20 } });
    expect(bounded?.bounded).toMatch(/stopped at its bound/);
    // the only chain: found all the same, by the fewest links
    expect(bounded?.path).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
