/**
 * Every detector (Broder with mod, SCT and adaptive sampling, simhash, I-Match, PPJoin,
 * MinHash-LSH, PDC-MR with each signature, document-level SpotSigs) on Apache Spark `local[2]`
 * (the pinned pyspark, two map partitions and two reduce partitions a job) gives the local
 * backend's pairs, spans, metrics and counters byte for byte. One Spark application a variant.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import type { RunRecord } from '../../../../harness/results/types.ts';
import { expectSameResults, writeEveryDetectorConfig } from '../../../support/every-detector.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { runOptions } from '../../../support/run-options.ts';
import { sparkSetup } from './spark-setup.ts';

const spark = sparkSetup();
const WHAT = 'every detector on Apache Spark local[2]';
const VARIANTS = ['ground-truth', 'mod', 'sct', 'adaptive', 'simhash', 'imatch', 'ppjoin', 'minhash', 'pdc-shingles', 'pdc-imatch', 'pdc-spotsigs', 'spotsigs'];

let root: string;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  if (!spark.found) return requireTool(false, WHAT, spark.reason);
  root = mkdtempSync(join(tmpdir(), 'spark-every-'));
  const config = await writeEveryDetectorConfig(root, [`- { kind: spark, master: 'local[2]', map_tasks: 2, reduce_tasks: 2, python: ${JSON.stringify(spark.python)} }`]);
  for (const kind of ['local', 'spark']) {
    const r = await runExperiment(runOptions(config, join(root, 'results'), { only: VARIANTS, ...(kind === 'local' ? {} : { backendKind: kind }) }));
    if (r.kind !== 'completed') throw new Error(`${kind}: the run did not complete`);
    dirs[kind] = r.dir;
  }
}, 900_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skipsWithout(spark.found, WHAT, spark.found ? '' : spark.reason))('every detector on Spark local[2]', () => {
  it("writes the local backend's pairs, spans, metrics and counters", () => {
    expectSameResults(dirs.spark as string, dirs.local as string, 'spark');
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
