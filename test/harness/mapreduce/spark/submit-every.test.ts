/**
 * The dry run's spark-submit commands are what a run executes, and they compute what local does:
 * `bench run --dry-run` on a config whose spark backend has `launch: spark-submit` and a file://
 * staging_dir, then the same config run (the same run id) on Apache Spark local[2], whose pairs
 * and spans files are the local backend's byte for byte. The ground truth, and PDC-MR with I-Match
 * signatures (every PDC-MR job: side data shipped from the staging folder with addFile).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import type { SparkSubmitPlan } from '../../../../harness/mapreduce/spark/dry-run.ts';
import type { RunRecord } from '../../../../harness/results/types.ts';
import { expectSamePairs, writeEveryDetectorConfig } from '../../../support/every-detector.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { runOptions } from '../../../support/run-options.ts';
import { sparkSetup } from './spark-setup.ts';

const spark = sparkSetup();
const WHAT = "the dry run's spark-submit commands on Apache Spark local[2]";
const VARIANTS = ['ground-truth', 'pdc-imatch'];

let root: string;
let plan: SparkSubmitPlan;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  if (!spark.found) return requireTool(false, WHAT, spark.reason);
  root = mkdtempSync(join(tmpdir(), 'spark-submit-every-'));
  const staging = pathToFileURL(join(root, 'staging')).href;
  const config = await writeEveryDetectorConfig(root, [
    `- { kind: spark, master: 'local[2]', launch: spark-submit, staging_dir: '${staging}', map_tasks: 2, reduce_tasks: 2, python: ${JSON.stringify(spark.python)} }`,
  ]);
  const dry = await runExperiment(runOptions(config, join(root, 'results'), { only: VARIANTS, backendKind: 'spark', runId: 'same', dryRun: { documents: 40 } }));
  if (dry.kind !== 'dry-run') throw new Error('not a dry run');
  plan = dry.plan as SparkSubmitPlan;
  for (const [name, kind] of [['local', undefined], ['spark', 'spark']] as const) {
    const r = await runExperiment(runOptions(config, join(root, `results-${name}`), { only: VARIANTS, runId: 'same', ...(kind ? { backendKind: kind } : {}) }));
    if (r.kind !== 'completed') throw new Error(`${name}: the run did not complete`);
    dirs[name] = r.dir;
  }
}, 1_800_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skipsWithout(spark.found, WHAT, spark.found ? '' : spark.reason))('spark-submit as the dry run prints it', () => {
  it("ran exactly the dry run's command for each variant", () => {
    const record = JSON.parse(readFileSync(join(dirs.spark as string, 'run.json'), 'utf8')) as RunRecord;
    expect(record.variants.map((v) => v.name)).toEqual(VARIANTS);
    expect(record.variants.map((v) => (v.backend_extra as { spark_submit: string[] }).spark_submit)).toEqual(plan.variants.map((v) => v.submit));
    expect(plan.variants.map((v) => v.submit[0])).toEqual(VARIANTS.map(() => join(spark.found ? spark.python : '', '..', 'spark-submit')));
  });

  it("writes the local backend's pairs and spans", () => {
    expectSamePairs(dirs.spark as string, dirs.local as string, 'spark-submit');
  });
});
