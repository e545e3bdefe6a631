import { describe, expect, it } from 'vitest';
import { clusterSizes } from '../../../algorithms/simhash/clusters.ts';
import { clusterStats } from './support.ts';

describe('cluster sizes (thesis §6.3, Figure 6-2, Table 6.2)', () => {
  it("counts 1000 documents with one fingerprint as 1000 clusters of size 1000 (the thesis' example)", () => {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 1000; i++) {
      for (let j = i + 1; j < 1000; j++) {
        a.push(i);
        b.push(j);
      }
    }
    const stats = clusterStats(clusterSizes(1000, { a, b }));
    expect([...stats.histogram]).toEqual([[1000, 1000]]);
    expect(stats.mean).toBe(1000);
  });

  it("keeps B and C in A's cluster though they are not paired (clusters are led, not merged)", () => {
    // pairs A-B, A-C (B and C 2k apart), D alone, E-F
    const [A, B, C, D, E, F] = [0, 1, 2, 3, 4, 5];
    const sizes = clusterSizes(6, { a: [A, A, E], b: [B, C, F] });
    expect([...sizes]).toEqual([3, 2, 2, 1, 2, 2]);
    const stats = clusterStats(sizes);
    // by hand: sizes 3, 2, 2, 1, 2, 2
    expect(stats.clusters).toBe(6);
    expect(stats.mean).toBe(12 / 6);
    expect(stats.withDuplicates).toBe(5);
    expect(stats.meanWithDuplicates).toBe(11 / 5);
    expect([...stats.histogram]).toEqual([[1, 1], [2, 4], [3, 1]]);
    void D;
  });

  it('counts only the documents included (those with a fingerprint), and gives null means for none', () => {
    const sizes = clusterSizes(4, { a: [0], b: [1] });
    const stats = clusterStats(sizes, (d) => d !== 3);
    expect(stats.clusters).toBe(3);
    expect(stats.mean).toBe(5 / 3);
    expect(clusterStats(new Uint32Array(0)).mean).toBeNull();
    expect(clusterStats(clusterSizes(2, { a: [], b: [] })).meanWithDuplicates).toBeNull();
  });
});
