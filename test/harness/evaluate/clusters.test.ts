/**
 * Cluster measures (harness/evaluate/clusters.ts) on a case worked by hand, and through a run:
 * an external detector's clusters on a corpus built so that transitive closure must chain
 * documents the ground truth keeps apart.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterMeasures, clustersFromTable } from '../../../harness/evaluate/clusters.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { runOptions } from '../../support/run-options.ts';

const pairs = (list: [number, number, number][]) => ({
  a: Uint32Array.from(list.map((p) => p[0])),
  b: Uint32Array.from(list.map((p) => p[1])),
  score: Float64Array.from(list.map((p) => p[2])),
});

describe('cluster measures', () => {
  it('on seven documents, one cluster chaining two ground-truth components, equal the values worked by hand', () => {
    // Ground truth at t = 0.5: Dup = {0-1, 1-2, 3-4, 5-6}, components {0,1,2} {3,4} {5,6}.
    const truth = pairs([
      [0, 1, 0.8],
      [1, 2, 0.7],
      [0, 2, 0.3],
      [3, 4, 0.9],
      [4, 5, 0.2],
      [5, 6, 0.6],
    ]);
    // The detector: one cluster {0,1,2,3,4} (2 and 3 chained), 5 and 6 in none.
    const clusterOf = Int32Array.from([0, 0, 0, 0, 0, -1, -1]);
    const m = clusterMeasures({ documents: 7, clusterOf, truth, threshold: 0.5 });
    // 10 induced pairs, 3 of them in Dup (0-1, 1-2, 3-4); 7 below t.
    expect(m.cluster_precision_pairs).toBe(3 / 10);
    expect(m.cluster_recall_pairs).toBe(3 / 4);
    expect(m.induced_pairs_below_threshold).toBe(7);
    // 5 documents clustered, all in a pair of Dup; 7 documents in a pair of Dup.
    expect(m.cluster_precision_docs).toBe(1);
    expect(m.cluster_recall_docs).toBe(5 / 7);
    // B-cubed: 0,1,2: P 3/5, R 1; 3,4: P 2/5, R 1; 5,6 (own clusters): P 1, R 1/2.
    expect(m.bcubed_precision).toBeCloseTo((3 * (3 / 5) + 2 * (2 / 5) + 2) / 7, 15);
    expect(m.bcubed_recall).toBeCloseTo((5 + 2 * 0.5) / 7, 15);
    // As many documents removed as the ground truth would remove (4 = 4), the wrong ones.
    expect(m.docs_removed).toBe(4);
    expect(m.docs_to_remove).toBe(4);
    expect(m.largest_cluster).toBe(5);
  });

  it('reads a clusters table, singletons included, and leaves measures of empty sets empty', () => {
    expect([...clustersFromTable([['0', '0 2'], ['2', '0 2'], ['1', '1 1']], 4)]).toEqual([0, 1, 0, -1]);
    const m = clusterMeasures({ documents: 3, clusterOf: Int32Array.from([-1, -1, -1]), truth: pairs([]), threshold: 0.5 });
    expect(m).toMatchObject({ cluster_precision_pairs: null, cluster_recall_pairs: null, bcubed_precision: 1, bcubed_recall: 1, docs_removed: 0, largest_cluster: 1 });
  });
});

describe('an external detector\'s clusters in a run', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'clusters-run-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('report what transitive closure chained, as worked by hand', async () => {
    // Word sets (1-word shingles): J(A, AB) = J(AB, B) = 6/9, J(A, B) = 3/9, J(C, C2) = 6/7; D shares nothing.
    const docs = {
      A: 'w1 w2 w3 w4 w5 w6',
      AB: 'w1 w2 w3 w4 w5 w6 w7 w8 w9',
      B: 'w4 w5 w6 w7 w8 w9',
      C: 'x1 x2 x3 x4 x5 x6',
      C2: 'x1 x2 x3 x4 x5 x6 x7',
      D: 'y1 y2 y3 y4 y5 y6',
    };
    writeFileSync(join(root, 'c.jsonl'), Object.entries(docs).map(([id, text]) => JSON.stringify({ id, text })).join('\n') + '\n');
    // The detector chains A, AB and B, and puts D with C and C2.
    writeFileSync(join(root, 'clusters.sh'), 'printf "doc,cluster\\nA,1\\nAB,1\\nB,1\\nC,2\\nC2,2\\nD,2\\n" > "$1"\n');
    writeFileSync(
      join(root, 'c.yaml'),
      `experiment: clusters
corpus: { format: jsonl, path: c.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 1 } } }
runs:
  - algorithm: external
    name: chained
    params: { program: clusters.sh, command: [sh, "{program}", "{output}"], output: clusters }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.5] }
backend: { kind: local, workers: 1 }
`,
    );
    const out = await runExperiment(runOptions(join(root, 'c.yaml'), join(root, 'results')));
    if (out.kind !== 'completed') throw new Error(out.kind);
    const m = out.record.variants[1]?.measures;
    // Dup = {A-AB, AB-B, C-C2}; components {A,AB,B} {C,C2} {D}. Induced: 6 pairs, 3 in Dup;
    // below t: A-B (1/3), C-D, C2-D (0).
    expect(m).toMatchObject({
      pairs: 6,
      precision_pairs: 0.5,
      recall_pairs: 1,
      cluster_precision_pairs: 0.5,
      cluster_recall_pairs: 1,
      induced_pairs_below_threshold: 3,
      cluster_precision_docs: 5 / 6,
      cluster_recall_docs: 1,
      bcubed_recall: 1,
      docs_removed: 4,
      docs_to_remove: 3,
      largest_cluster: 3,
    });
    // B-cubed precision: A, AB, B 1 each; C, C2 2/3 each; D 1/3.
    expect(m?.bcubed_precision).toBeCloseTo((3 + 4 / 3 + 1 / 3) / 6, 15);
    expect(out.record.variants[1]?.files.map((f) => f.file)).toContain('clusters/chained.csv.gz');
  });
});
