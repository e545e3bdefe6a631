/**
 * PDC-MR and document-level SpotSigs through the runner: the local backend (kernels) and the
 * streaming backend (the text jobs as Hadoop Streaming would run them) write byte-identical
 * pairs and spans files and the same metrics, timings aside, including the span measures
 * against a planted oracle; the EMR dry run lists every job of both plans as a step.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { oracleCsv } from '../../../harness/evaluate/oracle-file.ts';
import { synthPartial } from '../../../harness/synth/partial.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;
let config: string;
const runs: Record<string, string> = {};
const VARIANTS = ['pdc-shingles', 'pdc-imatch', 'pdc-spotsigs', 'spotsigs-doc'];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pdc-mr-backends-'));
  const corpus: { id: string; text: string }[] = [];
  for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['hard-ham-1'] } }, newCorpusStats())) corpus.push(d);
  const s = synthPartial(corpus.slice(0, 120), { plants: 12, documents: 40, minRun: 3, maxRun: 6, editRate: 0.2, minWords: 3, seed: 3 });
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'corpus.jsonl'), s.docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  writeFileSync(join(root, 'data', 'oracle.csv'), oracleCsv(s.oracle));
  config = join(root, 'pdc.yaml');
  writeFileSync(
    config,
    `experiment: pdc
corpus: { format: jsonl, path: data/corpus.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - { algorithm: pdc-mr, name: pdc-shingles, params: { signature: { method: shingles, n: 3 }, tau: 0.8, gamma: 2 } }
  - { algorithm: pdc-mr, name: pdc-imatch, params: { signature: { method: imatch }, gamma: 2 } }
  - { algorithm: pdc-mr, name: pdc-spotsigs, params: { signature: { method: spotsigs, antecedents: 20 }, tau: 0.5, gamma: 1 } }
  - { algorithm: spotsigs, name: spotsigs-doc, params: { antecedents: 5, tau: 0.2 } }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5], oracle: data/oracle.csv }
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
}, 240_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Row = Record<string, string>;
const metrics = (dir: string): Row[] =>
  (parse(readFileSync(join(dir, 'metrics.csv'), 'utf8'), { columns: true }) as Row[]).map((r) => {
    const out = { ...r };
    for (const c of VARYING_COLUMNS) delete out[c];
    return out;
  });

describe('PDC-MR on the local and streaming backends', () => {
  it('writes byte-identical pairs and spans files, and the same span examples for the report', () => {
    for (const v of VARIANTS) {
      const file = (dir: string, folder: string) => readFileSync(join(dir, folder, `${v}.csv.gz`));
      expect(file(runs.streaming as string, 'pairs').equals(file(runs.local as string, 'pairs'))).toBe(true);
      if (v === 'spotsigs-doc') continue;
      expect(file(runs.streaming as string, 'spans').equals(file(runs.local as string, 'spans'))).toBe(true);
      const examples = (dir: string) => readFileSync(join(dir, 'span-examples', `${v}.json`));
      expect(examples(runs.streaming as string).equals(examples(runs.local as string))).toBe(true);
    }
  });

  it('gives the same metrics, span measures included, timings aside', () => {
    const local = metrics(runs.local as string);
    expect(metrics(runs.streaming as string)).toEqual(local);
    const row = local.find((r) => r.variant === 'pdc-shingles') as Row;
    expect(Number(row.span_f1)).toBeGreaterThan(0.5);
    // document-level SpotSigs writes no spans: no span cells
    expect((local.find((r) => r.variant === 'spotsigs-doc') as Row).span_f1).toBe('');
  });

  it('lists every job as an EMR step in the dry run', async () => {
    const r = await runExperiment(runOptions(config, join(root, 'results'), { backendKind: 'emr', dryRun: { documents: 40 } }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const plan = JSON.stringify(r.plan);
    for (const step of ['pdc-df', 'pdc-mr1-index', 'pdc-mr2-sentences', 'pdc-mr3-sequences', 'pdc-spans', 'pdc-pairs', 'spotsigs-mr1-index', 'spotsigs-mr2-pairs']) {
      expect(plan).toContain(step);
    }
  });
});
