/**
 * A detector written in the test folder (test/contract/detectors/exact-duplicates.ts: exact
 * duplicates by hash, decisions only) runs through the runner on the local and streaming
 * backends, is planned for EMR, and its results go through metrics.csv, run.json, the report and
 * `bench check`, with no harness file knowing its name. The expected values are computed here
 * from the definitions: duplicates by comparing normalized texts, precision and recall from the
 * ground truth's pairs file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from '../../algorithms/text/normalize.ts';
import { check } from '../../harness/commands/check.ts';
import { writeBaseline } from '../../harness/commands/baseline.ts';
import { runExperiment, type RunOptions } from '../../harness/experiment/runner.ts';
import { writeRunReport } from '../../harness/report/write.ts';
import { VARYING_COLUMNS } from '../../harness/results/measures.ts';
import type { RunRecord } from '../../harness/results/types.ts';
import { runOptions } from '../support/run-options.ts';
import { TEST_DETECTORS } from './detectors/catalog.ts';

const CORPUS = new URL('../fixtures/corpus/duplicates.jsonl', import.meta.url);
const docs = readFileSync(CORPUS, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { id: string; text: string });

let root: string;
let config: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'test-detector-'));
  config = join(root, 'dups.yaml');
  writeFileSync(
    config,
    `experiment: dups
corpus: { format: jsonl, path: ${fileURLToPath(CORPUS)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: exact-duplicates
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5] }
backend: { kind: local, workers: 2 }
backends:
  - { kind: streaming, map_tasks: 2, reduce_tasks: 2 }
  - { kind: emr, region: us-east-1, s3_prefix: 's3://example-bucket/ndd' }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function options(over: Partial<RunOptions> = {}): RunOptions {
  return runOptions(config, join(root, 'results'), { detectors: TEST_DETECTORS, ...over });
}

type Row = Record<string, string>;
const csvRows = (text: string): Row[] => parse(text, { columns: true }) as Row[];
const pairsFile = (dir: string, variant: string): Row[] => csvRows(gunzipSync(readFileSync(join(dir, 'pairs', `${variant}.csv.gz`))).toString());
const key = (x: string, y: string): string => (x < y ? `${x}|${y}` : `${y}|${x}`);

/** Exact duplicates by definition: equal normalized texts. */
function bruteForceDuplicates(): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < docs.length; i++) {
    for (let j = i + 1; j < docs.length; j++) {
      const [x, y] = [docs[i], docs[j]] as [(typeof docs)[0], (typeof docs)[0]];
      if (normalize(x.text) === normalize(y.text)) out.add(key(x.id, y.id));
    }
  }
  return out;
}

describe('a detector written in the test folder', () => {
  const runs: Record<string, string> = {};
  beforeAll(async () => {
    for (const kind of ['local', 'streaming'] as const) {
      const r = await runExperiment(options(kind === 'local' ? {} : { backendKind: kind }));
      if (r.kind !== 'completed') throw new Error(`${kind}: expected a completed run`);
      runs[kind] = r.dir;
    }
  }, 120_000);

  it('finds exactly the pairs whose normalized texts are equal, on local and on streaming', () => {
    const expected = bruteForceDuplicates();
    // a1/a2 differ in case and punctuation only; b1/b2 and d1/d2 likewise
    expect([...expected].sort()).toEqual(['a1|a2', 'b1|b2', 'd1|d2']);
    for (const dir of Object.values(runs)) {
      const found = pairsFile(dir, 'exact-duplicates').map((r) => key(r.doc_a as string, r.doc_b as string));
      expect(found.sort()).toEqual([...expected].sort());
    }
    const bytes = (dir: string): Buffer => readFileSync(join(dir, 'pairs', 'exact-duplicates.csv.gz'));
    expect(bytes(runs.streaming as string).equals(bytes(runs.local as string))).toBe(true);
  });

  it('has empty avg_error and correlation, and run.json says why', () => {
    const dir = runs.local as string;
    const row = csvRows(readFileSync(join(dir, 'metrics.csv'), 'utf8')).find((r) => r.variant === 'exact-duplicates') as Row;
    expect(row.avg_error).toBe('');
    expect(row.correlation).toBe('');
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord;
    const v = run.variants.find((x) => x.name === 'exact-duplicates');
    const why = 'exact duplicates by hash: every pair scores 1, which is no estimate of the RR';
    expect(v?.not_applicable).toMatchObject({ avg_error: why, correlation: why, distribution: why });
    expect(v?.measures.avg_error).toBeNull();
    expect(v?.warnings).toEqual([]);
  });

  it('is judged by its decisions against Dup = {G >= 0.5}, pairs and documents', () => {
    const dir = runs.local as string;
    const truth = pairsFile(dir, 'ground-truth').filter((r) => Number(r.score) >= 0.5);
    const dup = new Set(truth.map((r) => key(r.doc_a as string, r.doc_b as string)));
    const res = bruteForceDuplicates();
    const both = [...res].filter((p) => dup.has(p)).length;
    const docsOf = (pairs: Set<string>): Set<string> => new Set([...pairs].flatMap((p) => p.split('|')));
    const dupDocs = docsOf(dup);
    const resDocs = docsOf(res);
    const bothDocs = [...resDocs].filter((d) => dupDocs.has(d)).length;
    const row = csvRows(readFileSync(join(dir, 'metrics.csv'), 'utf8')).find((r) => r.variant === 'exact-duplicates') as Row;
    expect(Number(row.precision_pairs)).toBeCloseTo(both / res.size, 15);
    expect(Number(row.recall_pairs)).toBeCloseTo(both / dup.size, 15);
    expect(Number(row.precision_docs)).toBeCloseTo(bothDocs / resDocs.size, 15);
    expect(Number(row.recall_docs)).toBeCloseTo(bothDocs / dupDocs.size, 15);
    // exact duplicates are near-duplicates, and the corpus has near-duplicates that are not exact
    expect(Number(row.precision_pairs)).toBe(1);
    expect(Number(row.recall_pairs)).toBeLessThan(1);
  });

  it('reports its candidates under the general columns, against the ground truth’s', () => {
    const rows = csvRows(readFileSync(join(runs.local as string, 'metrics.csv'), 'utf8'));
    const gt = rows.find((r) => r.variant === 'ground-truth') as Row;
    const v = rows.find((r) => r.variant === 'exact-duplicates') as Row;
    // one comparison per pair inside a hash group: the three duplicate pairs
    expect(v.candidate_pairs).toBe('3');
    expect(v.mr1_output_pairs).toBe('');
    // Broder shows its candidates as MR#1 output pairs, and under the general column too
    expect(gt.candidate_pairs).toBe(gt.mr1_output_pairs);
    expect(Number(v.candidate_reduction_pct)).toBeCloseTo(100 * (1 - 3 / Number(gt.mr1_output_pairs)), 12);
  });

  it('gives the same metrics on streaming as on local, timings aside', () => {
    const without = (dir: string): Row[] =>
      csvRows(readFileSync(join(dir, 'metrics.csv'), 'utf8')).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !VARYING_COLUMNS.includes(k))));
    expect(without(runs.streaming as string)).toEqual(without(runs.local as string));
  });

  it('goes into the report', async () => {
    const dir = runs.local as string;
    await writeRunReport(dir);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    // (booleans: a failing toContain would print the whole page with its inlined chart.js)
    expect(html.includes('exact-duplicates')).toBe(true);
    expect(html.includes('candidate_pairs')).toBe(true);
    // Broder's own figure is drawn over Broder's variants other than the ground truth: none here
    expect(html.includes('Reduction of MR#1 output pairs (Figure 3.9)')).toBe(false);
  });

  it('passes bench check against a baseline of its own run, and fails when its quality changes', async () => {
    const dir = runs.local as string;
    const baseline = join(root, 'baseline.json');
    await writeBaseline({ runs: [dir], out: baseline }, () => {});
    const b = JSON.parse(readFileSync(baseline, 'utf8')) as { variants: Record<string, { quality: Record<string, number | null> }> };
    expect(b.variants['exact-duplicates']?.quality).toMatchObject({ candidate_pairs: 3, avg_error: null });
    let out = '';
    await check({ runs: [dir], baseline, minFactor: 1.5, minDelta: 0.1, qualityOnly: true }, (t) => (out += t));
    expect(out).toContain('OK: no regressions');
    const runJson = join(dir, 'run.json');
    const run = JSON.parse(readFileSync(runJson, 'utf8')) as { variants: { name: string; measures: Record<string, number> }[] };
    const v = run.variants.find((x) => x.name === 'exact-duplicates');
    if (v) v.measures.candidate_pairs = 4;
    writeFileSync(runJson, JSON.stringify(run));
    await expect(check({ runs: [dir], baseline, minFactor: 1.5, minDelta: 0.1, qualityOnly: true }, () => {})).rejects.toThrow(/1 regression/);
  });

  it('is planned for EMR with its own step', async () => {
    const r = await runExperiment(options({ backendKind: 'emr', dryRun: { documents: 10 } }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    expect(JSON.stringify(r.plan)).toContain('hash-groups');
  });
});
