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
