/**
 * `bench explain` on a clustered variant (issue 26): the chain read back from the run folder
 * (its clusters file and pairs file), worked by hand, and the same as the errors file's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainFromRun } from '../../../harness/commands/explain.ts';
import type { ErrorLine } from '../../../harness/evaluate/explain/errors.ts';
import { renderExplanation } from '../../../harness/evaluate/explain/render.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { runOptions } from '../../support/run-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'explain-chains-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runDir = '';

// Word sets, by hand: RR(d0,d1) = 3/5, RR(d0,d2) = 2/6, RR(d0,d3) = 1/7, RR(d1,d2) = 2/6,
// RR(d1,d3) = 1/7, RR(d2,d3) = 3/5; d4 shares nothing and is in a cluster of its own with d5.
const texts = ['apple banana cherry date', 'apple banana cherry elder', 'apple banana fig grape', 'honey banana fig grape', 'kiwi lemon', 'mango'];

beforeAll(async () => {
  writeFileSync(join(dir, 'corpus.jsonl'), texts.map((t, i) => JSON.stringify({ id: `d${i}`, text: t })).join('\n') + '\n');
  writeFileSync(join(dir, 'clusters.csv'), 'doc,cluster\nd0,x\nd1,x\nd2,x\nd3,x\nd4,y\nd5,y\n');
  writeFileSync(
    join(dir, 'chains.yaml'),
    `experiment: chains
corpus: { format: jsonl, path: corpus.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 1 } } }
runs:
  - name: one-cluster
    algorithm: external
    params: { file: clusters.csv, output: clusters }
evaluate: { threshold: 0.5 }
backend: { kind: local, workers: 1 }
`,
  );
  const r = await runExperiment(runOptions(join(dir, 'chains.yaml'), join(dir, 'results'), { env: { NDD_BENCH_CACHE_DIR: 'off' }, runId: 'r', notice: () => {} }));
  if (r.kind !== 'completed') throw new Error(r.kind);
  runDir = r.dir;
}, 60_000);

describe('bench explain on a clustered variant', () => {
  it('gives the strongest chain of the pairs inside the cluster, weakest link first', async () => {
    const { explanation: e } = await explainFromRun({ run: runDir, variant: 'one-cluster', docA: 'd3', docB: 'd1' });
    expect(e.chain).toEqual({
      cluster_size: 4,
      made_of: 'induced pairs',
      bottleneck: 2 / 6,
      path: ['d1', 'd2', 'd3'],
      links: [
        { from: 'd1', to: 'd2', resemblance: 2 / 6, step: 1 },
        { from: 'd2', to: 'd3', resemblance: 3 / 5, step: 2 },
      ],
    });
  });

  it('gives the lines of the clusters file the variant read, with their line numbers, beside the exact truth', async () => {
    const { explanation: e } = await explainFromRun({ run: runDir, variant: 'one-cluster', docA: 'd0', docB: 'd3' });
    expect(e.evidence?.summary).toBe('clusters.csv puts both in cluster x (line 2 and line 5)');
    expect(e.evidence?.lines).toEqual(['A clusters.csv line 2: d0,x', 'B clusters.csv line 5: d3,x']);
    expect(e.exact.resemblance).toBeCloseTo(1 / 7, 12);
  });

  it('gives the chain the errors file gives for the same pair', async () => {
    const lines = readFileSync(join(runDir, 'errors', 'one-cluster.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ErrorLine);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      const { explanation: e } = await explainFromRun({ run: runDir, variant: 'one-cluster', docA: l.explanation.a.id, docB: l.explanation.b.id });
      expect(e.chain).toEqual(l.explanation.chain);
    }
  });

  it('says there is no chain for two documents of two clusters, and one link for a cluster of two that share nothing', async () => {
    expect((await explainFromRun({ run: runDir, variant: 'one-cluster', docA: 'd0', docB: 'd4' })).explanation.chain).toBeUndefined();
    const { explanation: e } = await explainFromRun({ run: runDir, variant: 'one-cluster', docA: 'd4', docB: 'd5' });
    expect(e.chain).toMatchObject({ cluster_size: 2, bottleneck: 0, path: ['d4', 'd5'] });
  });

  it('prints the chain weakest link first in at most 100 columns', async () => {
    const r = await explainFromRun({ run: runDir, variant: 'one-cluster', docA: 'd0', docB: 'd3' });
    const text = renderExplanation(r.explanation, r.texts, 100);
    const at = text.split('\n').findIndex((l) => l.startsWith('one cluster of 4 documents'));
    expect(text.split('\n').slice(at + 1, at + 3)).toEqual(['  0.3333  d0 – d2  (link 1 from A)', '  0.6  d2 – d3  (link 2 from A)']);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });
});
