/**
 * Every detector (Broder with mod, SCT and adaptive sampling, simhash, I-Match, PPJoin,
 * MinHash-LSH, PDC-MR, document-level SpotSigs) on Apache Spark `local[2]`
 * (the pinned pyspark, two map partitions and two reduce partitions a job) gives the local
 * backend's pairs, spans, metrics and counters byte for byte. One Spark application a variant.
 *
 * The reference for metrics and counters is the local backend running the same jobs in process
 * (`engine: jobs`): the local kernels give the same pairs and spans (compared too) but count
 * differently where a kernel skips a job's work (the ground truth's prefix join does not count
 * MR#2's distinct pairs, algorithms/broder/kernel.ts). The ground truth's own metrics row and
 * counters are left out of that comparison: on `local` it is planned from a higher floor than on
 * a backend that runs its jobs elsewhere (experiment/variant-run.ts planGroundTruth: the local
 * kernel's scorer answers below it), so its MR#2 counts fewer output pairs; its pairs file is
 * compared like every other.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../../harness/results/measures.ts';
import type { RunRecord } from '../../../../harness/results/types.ts';
import { expectSamePairs, writeEveryDetectorConfig } from '../../../support/every-detector.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { runOptions } from '../../../support/run-options.ts';
import { sparkSetup } from './spark-setup.ts';

const spark = sparkSetup();
const WHAT = 'every detector on Apache Spark local[2]';
// PDC-MR's other signatures add no job of their own (the streaming tests run them): one Spark application less each.
const VARIANTS = ['ground-truth', 'mod', 'sct', 'adaptive', 'simhash', 'imatch', 'ppjoin', 'minhash', 'pdc-shingles', 'spotsigs'];

let root: string;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  if (!spark.found) return requireTool(false, WHAT, spark.reason);
  root = mkdtempSync(join(tmpdir(), 'spark-every-'));
  const config = await writeEveryDetectorConfig(root, [`- { kind: spark, master: 'local[2]', map_tasks: 2, reduce_tasks: 2, python: ${JSON.stringify(spark.python)} }`]);
  const jobsConfig = join(root, 'every-jobs.yaml');
  writeFileSync(jobsConfig, readFileSync(config, 'utf8').replace('backend: { kind: local, workers: 2 }', 'backend: { kind: local, workers: 2, engine: jobs }'));
  for (const [name, file, kind] of [
    ['local', config, undefined],
    ['local-jobs', jobsConfig, undefined],
    ['spark', config, 'spark'],
  ] as const) {
    const r = await runExperiment(runOptions(file, join(root, 'results'), { only: VARIANTS, ...(kind ? { backendKind: kind } : {}) }));
    if (r.kind !== 'completed') throw new Error(`${name}: the run did not complete`);
    dirs[name] = r.dir;
  }
}, 1_800_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skipsWithout(spark.found, WHAT, spark.found ? '' : spark.reason))('every detector on Spark local[2]', () => {
  it("writes the local backend's pairs, spans, metrics and counters", () => {
    expect(dirs['local-jobs']).not.toBe(dirs.local);
    expectSamePairs(dirs.spark as string, dirs['local-jobs'] as string, 'spark');
    expectSamePairs(dirs.spark as string, dirs.local as string, 'spark against the local kernels');
    // Timings aside, and the local jobs' spill to disk (a measure of the local engine's memory, which Spark does not report).
    const skipped = new Set([...VARYING_COLUMNS, 'spill_mb']);
    const metrics = (d: string) => {
      const rows = readFileSync(join(d, 'metrics.csv'), 'utf8').trim().split('\n');
      const header = (rows[0] as string).split(',');
      return rows.filter((row) => !row.startsWith('every,ground-truth,')).map((r) => r.split(',').filter((_, i) => !skipped.has(header[i] as string)).join(','));
    };
    expect(metrics(dirs.spark as string), 'metrics.csv').toEqual(metrics(dirs['local-jobs'] as string));
    expect(metrics(dirs.spark as string).length).toBe(VARIANTS.length); // the header and every variant but the ground truth
    const counters = (d: string) =>
      (JSON.parse(readFileSync(join(d, 'run.json'), 'utf8')) as RunRecord).variants.filter((v) => v.name !== 'ground-truth').map((v) => ({ variant: v.name, counters: v.counters }));
    expect(counters(dirs.spark as string)).toEqual(counters(dirs['local-jobs'] as string));
    expect(counters(dirs.spark as string)).toHaveLength(VARIANTS.length - 1);
  });

  it('ran every job on Spark with at least two map partitions and two reduce partitions', () => {
    const record = JSON.parse(readFileSync(join(dirs.spark as string, 'run.json'), 'utf8')) as RunRecord;
    expect(record.variants.map((v) => v.name)).toEqual(VARIANTS);
    for (const v of record.variants) {
      const extra = v.backend_extra as { spark: string; jobs: { name: string; map_tasks: number; reduce_tasks: number }[] };
      expect(extra.spark).toMatch(/^Apache Spark 3\.5\.\d+ \(pyspark\), master local\[2\]$/);
      expect(extra.jobs.length).toBeGreaterThan(0);
      for (const j of extra.jobs) {
        expect(j.map_tasks, `${v.name} ${j.name}`).toBeGreaterThanOrEqual(2);
        expect([0, 2], `${v.name} ${j.name}`).toContain(j.reduce_tasks);
      }
    }
  });
});
