/**
 * I-Match through the harness: the local backend's kernel against its text jobs (in line, and on
 * two worker threads with a spilling shuffle), then whole runs on local and streaming with
 * byte-identical pairs and signatures, the EMR dry run's steps, and one-line config errors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { SMALL_JSONL, smallCorpus } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';
import { runPlan } from '../../support/run-plan.ts';
import { SCORE_WHY } from '../../../algorithms/imatch/plan.ts';
import { bruteForce } from './support.ts';
import { imatchParams } from '../../../algorithms/imatch/params.ts';

const docs = smallCorpus();

describe('I-Match on the local backend: kernel and text jobs', () => {
  it.each([{}, { idf_min: 0.3, extra_lexicons: 5, drop: 0.5 }])('agree on pairs, scores, counters and signatures for %j', async (params) => {
    const kernel = await runPlan('imatch', params, docs, { engine: 'auto', seed: 4 });
    const jobs = await runPlan('imatch', params, docs, { engine: 'jobs', seed: 4 });
    const spilled = await runPlan('imatch', params, docs, { engine: 'jobs', seed: 4, workers: 2, memoryMb: 0.01 });
    expect(kernel.rows).toEqual(bruteForce([...docs.texts], imatchParams.parse(params), 4).rows);
    expect(kernel.rows.length).toBeGreaterThan(0);
    for (const other of [jobs, spilled]) {
      expect(other.rows).toEqual(kernel.rows);
      expect(other.counters).toEqual(kernel.counters);
      const sorted = (r: typeof kernel): string[] => (r.outputs.tables?.['imatch-signatures'] ?? []).map(([k, v]) => `${k} ${v}`).sort();
      expect(sorted(other)).toEqual(sorted(kernel));
      expect(sorted(kernel)).toHaveLength(docs.texts.length);
    }
  });
});

type Row = Record<string, string>;
const csvRows = (text: string): Row[] => parse(text, { columns: true }) as Row[];

describe('I-Match runs on local and streaming', () => {
  let root: string;
  let config: string;
  const runs: Record<string, string> = {};
  const variants = ['imatch', 'imatch/extra_lexicons=2'];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'imatch-backends-'));
    config = join(root, 'imatch.yaml');
    writeFileSync(
      config,
      `experiment: imatch-backends
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: imatch
  - algorithm: imatch
    params: { idf_min: 0.3, extra_lexicons: [2], drop: 0.5 }
evaluate: { threshold: 0.5, min_score: 0.1 }
backend: { kind: local, workers: 2 }
backends:
  - { kind: streaming, map_tasks: 2, reduce_tasks: 2 }
  - { kind: emr, region: us-east-1, s3_prefix: 's3://example-bucket/ndd' }
`,
    );
    for (const kind of ['local', 'streaming'] as const) {
      const r = await runExperiment(runOptions(config, join(root, 'results'), kind === 'local' ? {} : { backendKind: kind }));
      if (r.kind !== 'completed') throw new Error(`${kind}: expected a completed run`);
      runs[kind] = r.dir;
    }
  }, 180_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('write byte-identical pairs and signatures', () => {
    // a variant's files are <folder>/<variant>.csv.gz, so imatch/extra_lexicons=2 sits in a subfolder
    const file = (dir: string, folder: string, v: string): Buffer => readFileSync(join(dir, folder, `${v}.csv.gz`));
    for (const v of variants) {
      for (const folder of ['pairs', 'signatures']) {
        expect(file(runs.streaming as string, folder, v).equals(file(runs.local as string, folder, v))).toBe(true);
      }
    }
    expect(csvRows(gunzipSync(file(runs.local as string, 'pairs', 'imatch')).toString())).toHaveLength(2);
  });

  it('ran the kernel on local and the jobs on streaming', () => {
    const run = JSON.parse(readFileSync(join(runs.local as string, 'run.json'), 'utf8')) as RunRecord;
    const v = run.variants.find((x) => x.name === 'imatch');
    expect(JSON.stringify(v)).toContain('"engine":"kernel"');
  });

  it('give the same metrics, with empty avg_error and correlation and the reason in run.json', () => {
    const without = (dir: string): Row[] =>
      csvRows(readFileSync(join(dir, 'metrics.csv'), 'utf8')).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !VARYING_COLUMNS.includes(k))));
    expect(without(runs.streaming as string)).toEqual(without(runs.local as string));
    const rows = without(runs.local as string);
    const run = JSON.parse(readFileSync(join(runs.local as string, 'run.json'), 'utf8')) as RunRecord;
    for (const name of variants) {
      const row = rows.find((r) => r.variant === name) as Row;
      expect(row.avg_error).toBe('');
      expect(row.correlation).toBe('');
      const v = run.variants.find((x) => x.name === name);
      expect(v?.not_applicable).toMatchObject({ avg_error: SCORE_WHY, correlation: SCORE_WHY });
      // candidate pairs are the signature collisions, before de-duplication
      expect(row.candidate_pairs).toBe(String(v?.counters['imatch-collisions']?.collisions));
    }
    // the fixture's two exact-duplicate pairs, and with K = 2 more
    expect(Number((rows.find((r) => r.variant === 'imatch') as Row).candidate_pairs)).toBe(2);
  });

  it('write one signature column per lexicon', () => {
    const text = gunzipSync(readFileSync(join(runs.local as string, 'signatures', 'imatch', 'extra_lexicons=2.csv.gz'))).toString();
    expect(text.split('\n')[0]).toBe('doc_id,signature_0,signature_1,signature_2');
  });

  it('are planned for EMR with the four I-Match steps', async () => {
    const r = await runExperiment(runOptions(config, join(root, 'results'), { backendKind: 'emr', dryRun: { documents: 19 } }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const text = JSON.stringify(r.plan);
    for (const step of ['imatch-df', 'imatch-signatures', 'imatch-collisions', 'imatch-pairs']) expect(text).toContain(step);
  });
});

describe('I-Match config errors', () => {
  let root: string;
  beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'imatch-config-'))));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('are one line each, naming the file, the line and the field', async () => {
    const file = join(root, 'bad.yaml');
    writeFileSync(
      file,
      `experiment: bad
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder }
runs:
  - algorithm: imatch
    params: { idf_min: -0.1 }
  - algorithm: imatch
    params: { idf_max: 1.5 }
  - algorithm: imatch
    params: { idf_min: 0.6, idf_max: 0.4 }
  - algorithm: imatch
    params: { drop: 1 }
  - algorithm: imatch
    params: { drop: 0 }
  - algorithm: imatch
    params: { extra_lexicons: -1 }
`,
    );
    let message = '';
    try {
      await loadExperiment(file, { env: {} });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      `${file}:6:24: runs[0].params.idf_min: must be at least 0, got -0.1`,
      `${file}:8:24: runs[1].params.idf_max: must be at most 1, got 1.5`,
      `${file}:10:38: runs[2].params.idf_max: must be at least idf_min (0.6), got 0.4`,
      `${file}:12:21: runs[3].params.drop: must be less than 1, got 1`,
      `${file}:14:21: runs[4].params.drop: must be more than 0, got 0`,
      `${file}:16:31: runs[5].params.extra_lexicons: must be at least 0, got -1`,
    ]);
  });
});
