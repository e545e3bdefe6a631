/**
 * PPJoin through the runner, as a user runs it: beside Broder's full run at the same shingling
 * (the ground truth), on the local backend (kernel), on the streaming backend (the six jobs as
 * Hadoop Streaming runs them: mapper | sort | reducer processes) and planned for EMR. Expected
 * values come from the ground truth's own pairs file: the join must report exactly its pairs
 * from t up, with the same scores.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../harness/errors.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { runExperiment, type RunOptions } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';
import { nearDuplicateCorpus } from './support.ts';

let root: string;
let config: string;
const runs: Record<string, string> = {};

type Row = Record<string, string>;
const csvRows = (text: string): Row[] => parse(text, { columns: true }) as Row[];
const pairsFile = (dir: string, variant: string): Row[] =>
  csvRows(gunzipSync(readFileSync(join(dir, 'pairs', `${variant}.csv.gz`))).toString());
const metrics = (dir: string): Row[] => csvRows(readFileSync(join(dir, 'metrics.csv'), 'utf8'));

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ppjoin-runner-'));
  const small = smallCorpus();
  const lines = [
    ...Array.from(small.texts).map((text, i) => JSON.stringify({ id: small.ids[i], text })),
    ...nearDuplicateCorpus(42).map((text, i) => JSON.stringify({ id: `g${i}`, text })),
  ];
  writeFileSync(join(root, 'corpus.jsonl'), lines.join('\n') + '\n');
  config = join(root, 'pp.yaml');
  writeFileSync(
    config,
    `experiment: pp
corpus: { format: jsonl, path: corpus.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: ppjoin
    params: { threshold: [0.5, 0.8], shingle: { unit: char, size: 16 }, filters: { suffix: true } }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5] }
backend: { kind: local, workers: 2 }
backends:
  - { kind: streaming, map_tasks: 2, reduce_tasks: 2 }
  - { kind: emr, region: us-east-1, s3_prefix: 's3://example-bucket/ndd' }
`,
  );
  for (const kind of ['local', 'streaming'] as const) {
    const r = await runExperiment(options(kind === 'local' ? {} : { backendKind: kind }));
    if (r.kind !== 'completed') throw new Error(`${kind}: expected a completed run`);
    runs[kind] = r.dir;
  }
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function options(over: Partial<RunOptions> = {}): RunOptions {
  return runOptions(config, join(root, 'results'), over);
}

describe('PPJoin through the runner', () => {
  it("reports exactly the ground truth's pairs from t up, with their scores", () => {
    for (const dir of Object.values(runs)) {
      const truth = pairsFile(dir, 'ground-truth');
      for (const t of [0.5, 0.8]) {
        const expected = truth.filter((r) => Number(r.score) >= t);
        expect(expected.length).toBeGreaterThan(10);
        expect(pairsFile(dir, `ppjoin/threshold=${t}`)).toEqual(expected);
      }
    }
  });

  it('has average error 0 and correlation 1 against Broder at the same shingling', () => {
    for (const t of [0.5, 0.8]) {
      const row = metrics(runs.local as string).find((r) => r.variant === `ppjoin/threshold=${t}`) as Row;
      expect(Number(row.avg_error)).toBe(0);
      expect(Number(row.correlation)).toBe(1);
      // its decisions are its pairs: all near-duplicates; at t = 0.8 it misses those in [0.5, 0.8)
      expect(Number(row.precision_pairs)).toBe(1);
      if (t === 0.5) expect(Number(row.recall_pairs)).toBe(1);
      expect(Number(row.candidate_pairs)).toBe(Number(row['ppjoin.candidates_after_signature']));
    }
    const at8 = metrics(runs.local as string).find((r) => r.variant === 'ppjoin/threshold=0.8') as Row;
    expect(Number(at8.recall_pairs)).toBeLessThan(1);
  });

  it('gives identical pairs files, metrics and counters on local and streaming', () => {
    const bytes = (dir: string, v: string): Buffer => readFileSync(join(dir, 'pairs', `${v}.csv.gz`));
    for (const v of ['ppjoin/threshold=0.5', 'ppjoin/threshold=0.8']) {
      expect(bytes(runs.streaming as string, v).equals(bytes(runs.local as string, v))).toBe(true);
    }
    const without = (dir: string): Row[] =>
      metrics(dir).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !VARYING_COLUMNS.includes(k))));
    expect(without(runs.streaming as string)).toEqual(without(runs.local as string));
    expect(Number((metrics(runs.local as string)[1] as Row)['ppjoin.candidates_after_prefix'])).toBeGreaterThan(0);
  });

  it('is planned for EMR as six steps per variant', async () => {
    const r = await runExperiment(options({ backendKind: 'emr', dryRun: { documents: 10 } }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const text = JSON.stringify(r.plan);
    ['token-frequencies', 'ordered-sets', 'prefix-pairs', 'position-filter', 'candidate-sets', 'verify'].forEach((step, i) =>
      expect(text).toContain(`ppjoin-${i + 1}-${step}`),
    );
  });

  it('refuses a threshold outside (0, 1] and an unknown token kind in one line naming file, line and field', async () => {
    const bad = async (params: string): Promise<string[]> => {
      const file = join(root, 'bad.yaml');
      writeFileSync(file, `experiment: bad\ncorpus: { format: jsonl, path: corpus.jsonl }\nruns:\n  - algorithm: ppjoin\n    params: ${params}\n`);
      const e = await loadExperiment(file, { env: {} }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(ConfigError);
      return [...(e as ConfigError).issues];
    };
    const t = await bad('{ threshold: 1.5 }');
    expect(t).toHaveLength(1);
    expect(t[0]).toMatch(/bad\.yaml:5:\d+: runs\[0\]\.params\.threshold: .*1/);
    const kind = await bad("{ threshold: 0.5, shingle: { unit: sentence, size: 2 } }");
    expect(kind).toHaveLength(1);
    expect(kind[0]).toMatch(/bad\.yaml:5:\d+: runs\[0\]\.params\.shingle\.unit: unknown unit 'sentence' \(known: char, word\)/);
    for (const line of [...t, ...kind]) expect(line).not.toContain('\n');
  });
});
