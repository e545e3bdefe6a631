/**
 * `bench run` end to end on a small jsonl corpus, through the real runner: the files of the
 * results contract, the ground-truth row, values checked against a naive computation written
 * here, byte-identical CSVs on a rerun, the cache key, and no results left by an aborted run.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { fingerprintHex, fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import { runExperiment, type RunOptions } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { SMALL_JSONL, smallCorpus } from '../../support/corpus.ts';
import { quiet, runOptions } from '../../support/run-options.ts';

let root: string;
let config: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'runner-'));
  config = join(root, 'small.yaml');
  writeFileSync(
    config,
    `experiment: small
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: sct, threshold: [5, 2] } }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5, 0.1] }
backend: { kind: local, workers: 1 }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function options(over: Partial<RunOptions> = {}): RunOptions {
  return runOptions(config, join(root, 'results'), over);
}

/** metrics.csv without the measured columns. */
function deterministicMetrics(csv: string): string {
  const [head, ...rows] = csv.trim().split('\n') as [string, ...string[]];
  const cols = head.split(',');
  const keep = cols.map((c) => !VARYING_COLUMNS.includes(c));
  return [head, ...rows].map((r) => r.split(',').filter((_, i) => keep[i]).join(',')).join('\n');
}

/** Ground-truth RR of every pair, from the definitions (sets of fingerprint hex strings). */
function naiveTruth(): Map<string, number> {
  const docs = smallCorpus();
  const sets = Array.from(docs.texts).map((t) => new Set(charShingles(normalize(t), 16).map((s) => fingerprintHex(fingerprintOf(s, 'rabin64'), 0, 2))));
  const out = new Map<string, number>();
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      const A = sets[i] as Set<string>;
      const B = sets[j] as Set<string>;
      let c = 0;
      for (const x of A) if (B.has(x)) c++;
      if (c > 0) {
        const [x, y] = [docs.ids[i] as string, docs.ids[j] as string].sort() as [string, string];
        out.set(`${x},${y}`, c / (A.size + B.size - c));
      }
    }
  }
  return out;
}

describe('bench run on a small corpus', () => {
  let dir: string;
  beforeAll(async () => {
    const r = await runExperiment(options());
    if (r.kind !== 'completed') throw new Error('expected a completed run');
    dir = r.dir;
  });

  it('writes the files of the results contract and nothing else', () => {
    expect(readdirSync(dir).sort()).toEqual(['distribution.csv', 'errors', 'metrics.csv', 'pairs', 'run.json', 'size-groups.csv']);
    expect(readdirSync(join(dir, 'errors', 'broder')).sort()).toEqual(['sct=2.jsonl', 'sct=5.jsonl']);
    expect(readdirSync(join(dir, 'pairs')).sort()).toEqual(['broder', 'ground-truth.csv.gz']);
    expect(readdirSync(join(dir, 'pairs', 'broder')).sort()).toEqual(['sct=2.csv.gz', 'sct=5.csv.gz']);
    expect(readdirSync(join(root, 'results', 'small'))).toEqual([dir.split('/').pop()]);
  });

  it('scores the ground truth against itself as error 0, correlation 1, precision and recall 1', () => {
    const [head, gt] = readFileSync(join(dir, 'metrics.csv'), 'utf8').split('\n') as [string, string];
    const row = Object.fromEntries(head.split(',').map((c, i) => [c, gt.split(',')[i]]));
    expect(row).toMatchObject({
      variant: 'ground-truth',
      docs: '19',
      avg_error: '0',
      correlation: '1',
      precision_pairs: '1',
      recall_pairs: '1',
      precision_docs: '1',
      recall_docs: '1',
    });
  });

  it('writes exactly the ground-truth pairs at or above min_score, with ids sorted', () => {
    const expected = [...naiveTruth()]
      .filter(([, s]) => s >= 0.1)
      .map(([k, s]) => `${k},${s}`)
      .sort();
    const lines = gunzipSync(readFileSync(join(dir, 'pairs', 'ground-truth.csv.gz'))).toString('utf8').trim().split('\n');
    expect(lines[0]).toBe('doc_a,doc_b,score');
    expect(lines.slice(1)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(5);
  });

  it('writes the distribution of Tables 3.1/3.3 as a percentage of all documents', () => {
    const truth = naiveTruth();
    const pct = (t: number): number => {
      const docs = new Set<string>();
      for (const [k, s] of truth) if (s >= t) for (const id of k.split(',')) docs.add(id);
      return (100 * docs.size) / 19;
    };
    const rows = readFileSync(join(dir, 'distribution.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toBe('rr_threshold,ground-truth,broder/sct=5,broder/sct=2');
    for (const [i, t] of [0.9, 0.5, 0.1].entries()) {
      const cells = (rows[i + 1] as string).split(',');
      expect(Number(cells[0])).toBe(t);
      expect(Number(cells[1])).toBeCloseTo(pct(t), 12);
    }
  });

  it('records provenance and counters in run.json', () => {
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    expect(run.status).toBe('completed');
    expect(run.corpus.documents).toBe(19);
    expect(run.environment.node).toBe(process.version);
    expect(run.variants.map((v: { name: string }) => v.name)).toEqual(['ground-truth', 'broder/sct=5', 'broder/sct=2']);
    expect(run.variants[2].counters['mr1-shingle-pairs'].fingerprints_over_sct).toBeGreaterThan(0);
    // SCT drops pairs from MR#1 (Figure 3.9)
    expect(run.variants[2].measures.mr1_reduction_pct).toBeGreaterThan(0);
    expect(run.variants[2].measures.mr1_reduction_pct).toBe(
      100 * (1 - run.variants[2].counters['mr1-shingle-pairs'].output_pairs / run.variants[0].counters['mr1-shingle-pairs'].output_pairs),
    );
  });

  it('finds a complete run of the same config instead of running it again', async () => {
    const again = await runExperiment(options());
    expect(again).toEqual({ kind: 'already-complete', dir });
  });

  it('gives byte-identical CSVs apart from the timing columns when forced to rerun', async () => {
    const before = {
      metrics: deterministicMetrics(readFileSync(join(dir, 'metrics.csv'), 'utf8')),
      distribution: readFileSync(join(dir, 'distribution.csv')),
      pairs: readFileSync(join(dir, 'pairs', 'broder', 'sct=2.csv.gz')),
    };
    const r = await runExperiment(options({ earlier: { complete: 'replace' } }));
    expect(r.kind).toBe('completed');
    expect(deterministicMetrics(readFileSync(join(dir, 'metrics.csv'), 'utf8'))).toBe(before.metrics);
    expect(readFileSync(join(dir, 'distribution.csv')).equals(before.distribution)).toBe(true);
    expect(readFileSync(join(dir, 'pairs', 'broder', 'sct=2.csv.gz')).equals(before.pairs)).toBe(true);
  });

  it('leaves no run folder, temporary folder or lock behind when the run is aborted', async () => {
    const c = new AbortController();
    const outRoot = join(root, 'aborted');
    const notices: string[] = [];
    const p = runExperiment(options({ outRoot, signal: c.signal, notice: (l) => notices.push(l), progress: { ...quiet, update: () => c.abort(new Error('interrupted')) } }));
    await expect(p).rejects.toThrow('interrupted');
    // The abort stops the ground truth itself: nothing was finished, so nothing is kept for --resume.
    expect(existsSync(join(outRoot, 'small')) ? readdirSync(join(outRoot, 'small')) : []).toEqual([]);
    expect(notices).toEqual([]);
  });
});
