/**
 * A clustered variant's errors carry the chain that put each pair in one cluster (issue 26),
 * through the real runner: a cluster written by hand (an external detector's `file`), the
 * ground truth word 1-shingles, every resemblance worked by hand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import type { ErrorLine } from '../../../harness/evaluate/explain/errors.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;

// Word sets, by hand: RR(d0,d1) = 3/5, RR(d0,d2) = 2/6, RR(d0,d3) = 1/7,
// RR(d1,d2) = 2/6, RR(d1,d3) = 1/7, RR(d2,d3) = 3/5.
const texts = ['apple banana cherry date', 'apple banana cherry elder', 'apple banana fig grape', 'honey banana fig grape', 'kiwi'];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'chains-'));
  writeFileSync(join(root, 'corpus.jsonl'), texts.map((t, i) => JSON.stringify({ id: `d${i}`, text: t })).join('\n') + '\n');
  writeFileSync(join(root, 'clusters.csv'), 'doc,cluster\nd0,x\nd1,x\nd2,x\nd3,x\n');
  // the judges call (d0,d3) a duplicate, (d0,d1) none, (d2,d4) a duplicate; d4 is in no cluster
  writeFileSync(join(root, 'judged.csv'), 'doc_a,doc_b,label\nd3,d0,1\nd0,d1,0\nd2,d4,1\n');
  writeFileSync(
    join(root, 'chains.yaml'),
    `experiment: chains
corpus: { format: jsonl, path: corpus.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 1 } } }
runs:
  - name: one-cluster
    algorithm: external
    params: { file: clusters.csv, output: clusters }
evaluate: { threshold: 0.5, judgments: { path: judged.csv } }
backend: { kind: local, workers: 1 }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('errors of a clustered variant', () => {
  it('give each false positive the strongest chain of the pairs inside its cluster, weakest link first', async () => {
    const r = await runExperiment(runOptions(join(root, 'chains.yaml'), join(root, 'results'), { runId: 'r', notice: () => {} }));
    if (r.kind !== 'completed') throw new Error(`expected a completed run, got ${r.kind}`);
    const all = readFileSync(join(r.dir, 'errors', 'one-cluster.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ErrorLine);
    const lines = all.filter((l) => l.against === undefined && l.from === undefined);
    const ofClusters = all.filter((l) => l.from === 'clusters');
    // Against the judges, by hand: it decides (d0,d1), judged none [false positive]; it misses
    // (d2,d4), judged a duplicate [false negative]; (d0,d3) it decides and the judges agree.
    const judged = all.filter((l) => l.against === 'judgments');
    expect(judged.map((l) => [l.kind, l.explanation.a.id, l.explanation.b.id, l.judgment, l.of, l.explanation.exact.resemblance])).toEqual([
      ['false positive', 'd0', 'd1', 'not a duplicate', 1, 3 / 5],
      ['false negative', 'd2', 'd4', 'duplicate', 1, 0],
    ]);
    // the marked lines follow the ground truth's: its clusters' errors, then the judges'
    expect(all.slice(lines.length, lines.length + ofClusters.length)).toEqual(ofClusters);
    expect(all.slice(lines.length + ofClusters.length)).toEqual(judged);
    // Its clusters read as a pipeline reads them: the same four induced pairs below 0.5, the
    // most wrong first (1/7 before 2/6; ties by documents), each in one cluster of 4; no
    // near-duplicate is split ((d0,d1) and (d2,d3) lie in the cluster).
    expect(ofClusters.map((l) => [l.kind, l.rank, l.of, l.explanation.a.id, l.explanation.b.id, l.explanation.clusters])).toEqual(
      [
        ['d0', 'd3', 1 / 7],
        ['d1', 'd3', 1 / 7],
        ['d0', 'd2', 2 / 6],
        ['d1', 'd2', 2 / 6],
      ].map(([a, b, rr], i) => ['false positive', i + 1, 4, a, b, { together: true, size_a: 4, size_b: 4, verdict: 'false positive', wrongness: 0.5 - (rr as number) }]),
    );
    // The induced pairs below 0.5: (d0,d2), (d1,d2), (d0,d3), (d1,d3).
    expect(lines.map((l) => [l.kind, l.explanation.a.id, l.explanation.b.id].join(' ')).sort()).toEqual(['d0 d2', 'd0 d3', 'd1 d2', 'd1 d3'].map((p) => `false positive ${p}`));
    const of = (a: string, b: string) => (lines.find((l) => l.explanation.a.id === a && l.explanation.b.id === b) as ErrorLine).explanation.chain;
    // d0 to d3: 0–1–2–3 and 0–2–3 both have bottleneck 2/6 (0–3 itself 1/7): the fewer links win.
    expect(of('d0', 'd3')).toEqual({
      cluster_size: 4,
      made_of: 'induced pairs',
      bottleneck: 2 / 6,
      path: ['d0', 'd2', 'd3'],
      links: [
        { from: 'd0', to: 'd2', resemblance: 2 / 6, step: 1 },
        { from: 'd2', to: 'd3', resemblance: 3 / 5, step: 2 },
      ],
    });
    // d1 to d3: through d2, min(2/6, 3/5), against 1/7 directly.
    expect(of('d1', 'd3')?.path).toEqual(['d1', 'd2', 'd3']);
    // d0 to d2: the direct link 2/6 ties 0–1–2 (min(3/5, 2/6)): one link.
    expect(of('d0', 'd2')?.path).toEqual(['d0', 'd2']);
    const run = JSON.parse(readFileSync(join(r.dir, 'run.json'), 'utf8')) as { variants: { name: string; cluster_links?: string }[] };
    expect(run.variants.find((v) => v.name === 'one-cluster')?.cluster_links).toBe('induced pairs');
  });
});
