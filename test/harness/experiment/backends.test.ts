/**
 * One config, several backends: `--backend streaming` must give the local backend's results
 * byte for byte (apart from timings), and `--backend emr --dry-run` must plan without network.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment, type RunOptions } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;
let config: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'backends-'));
  config = join(root, 'small.yaml');
  writeFileSync(
    config,
    `experiment: small
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: sct, threshold: [3] } }
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: [2] } }
backend: { kind: local, workers: 1 }
backends:
  - { kind: streaming, map_tasks: 2, reduce_tasks: 3 }
  - kind: emr
    region: us-east-1
    s3_prefix: s3://example-bucket/ndd
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function options(over: Partial<RunOptions> = {}): RunOptions {
  return runOptions(config, join(root, 'results'), over);
}

function withoutTimings(csv: string): string {
  const rows = csv.trim().split('\n').map((r) => r.split(','));
  const keep = (rows[0] as string[]).map((c) => !VARYING_COLUMNS.includes(c));
  return rows.map((r) => r.filter((_, i) => keep[i]).join(',')).join('\n');
}

describe('bench run --backend', () => {
  it('gives the same metrics, distribution and pairs on streaming as on local', async () => {
    const local = await runExperiment(options());
    const streaming = await runExperiment(options({ backendKind: 'streaming' }));
    if (local.kind !== 'completed' || streaming.kind !== 'completed') throw new Error('runs did not complete');
    expect(streaming.dir).not.toBe(local.dir);
    const read = (dir: string, f: string): Buffer => readFileSync(join(dir, f));
    expect(withoutTimings(read(streaming.dir, 'metrics.csv').toString())).toBe(withoutTimings(read(local.dir, 'metrics.csv').toString()));
    for (const f of ['distribution.csv', 'pairs/ground-truth.csv.gz', 'pairs/broder/sct=3.csv.gz', 'pairs/broder/mod=2.csv.gz']) {
      expect(read(streaming.dir, f).equals(read(local.dir, f)), f).toBe(true);
    }
    expect(streaming.record.backend.kind).toBe('streaming');
    // every variant's counters, including the SCT variant whose map output was the ground truth's
    expect(streaming.record.variants.map((v) => v.counters)).toEqual(local.record.variants.map((v) => v.counters));
    const jobs = (i: number) =>
      (streaming.record.variants[i]?.backend_extra as { jobs: { map_output_reused?: boolean; map_output_records: number }[] }).jobs;
    // every distinct kept fingerprint of every document is one MR#1 map output record
    expect(jobs(0)[0]?.map_output_records).toBe(streaming.record.variants[0]?.counters['mr1-shingle-pairs']?.fingerprints_kept);
    expect(jobs(0)[0]?.map_output_reused).toBe(false);
    expect(jobs(1)[0]?.map_output_reused).toBe(true);
    expect(jobs(2)[0]?.map_output_reused).toBe(false);
  });

  it('plans an EMR run as JSON without credentials or network', async () => {
    const r = await runExperiment(options({ backendKind: 'emr', dryRun: { documents: 19 }, env: {} }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const plan = r.plan as { kind: string; requests: { service: string; operation: string; params: Record<string, unknown> }[] };
    expect(plan.kind).toBe('emr-plan');
    const ops = plan.requests.map((q) => q.operation);
    expect(ops[0]).toBe('HeadBucket');
    expect(ops).toContain('RunJobFlow');
    expect(ops.at(-1)).toBe('TerminateJobFlows');
    const flow = plan.requests.find((q) => q.operation === 'RunJobFlow') as unknown as { params: { Steps: unknown[] } };
    // 3 variants × 2 Broder jobs, each one hadoop-streaming step (later variants via AddJobFlowSteps)
    const added = plan.requests.filter((q) => q.operation === 'AddJobFlowSteps').flatMap((q) => q.params.Steps as unknown[]);
    expect(flow.params.Steps.length + added.length).toBe(6);
  });

  it('refuses --backend emr when the config has no EMR settings', async () => {
    const bare = join(root, 'bare.yaml');
    writeFileSync(bare, `experiment: bare\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\n`);
    await expect(runExperiment(options({ configFile: bare, backendKind: 'emr', dryRun: { documents: 10 } }))).rejects.toThrow(
      /no `backends:` entry of kind emr/,
    );
  });
});
