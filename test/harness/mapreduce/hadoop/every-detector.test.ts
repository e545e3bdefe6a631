/**
 * Every detector (Broder with mod, SCT and adaptive sampling, simhash, I-Match, PPJoin,
 * MinHash-LSH, PDC-MR, document-level SpotSigs) on Apache Hadoop's own streaming runtime
 * (`--backend hadoop`, local mode from the pinned jars, two map splits and two reduce tasks a
 * job) gives the local backend's pairs, spans, metrics and counters byte for byte. All 36 jobs
 * run on the run's one job server JVM, one after another in its shared working folder, which
 * this also tests; still among the slowest tests of the suite, kept to one variant a set of jobs
 * (`ONE_VARIANT_PER_JOB_SET`; adaptive-target's calibrations are mod runs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import { ensureHadoopJars } from '../../../../harness/mapreduce/hadoop/install.ts';
import type { RunRecord } from '../../../../harness/results/types.ts';
import { expectSameResults, ONE_VARIANT_PER_JOB_SET, writeEveryDetectorConfig } from '../../../support/every-detector.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { runOptions } from '../../../support/run-options.ts';

const jars = ensureHadoopJars((line) => console.log(`ensure-hadoop: ${line}`));
const WHAT = "every detector on Hadoop's own streaming runtime";
const VARIANTS = ONE_VARIANT_PER_JOB_SET;

let root: string;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  if (!jars.found) return requireTool(false, WHAT, jars.reason);
  root = mkdtempSync(join(tmpdir(), 'hadoop-every-'));
  const config = await writeEveryDetectorConfig(root, ['- { kind: hadoop, installation: pinned, map_tasks: 2, reduce_tasks: 2 }']);
  for (const kind of ['local', 'hadoop']) {
    const r = await runExperiment(runOptions(config, join(root, 'results'), { only: VARIANTS, ...(kind === 'local' ? {} : { backendKind: kind }) }));
    if (r.kind !== 'completed') throw new Error(`${kind}: the run did not complete`);
    dirs[kind] = r.dir;
  }
}, 900_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skipsWithout(jars.found, WHAT, jars.found ? '' : jars.reason))('every detector on Hadoop local mode', () => {
  it("writes the local backend's pairs, spans, metrics and counters", () => {
    expectSameResults(dirs.hadoop as string, dirs.local as string, 'hadoop');
  });

  it('ran every job on Hadoop, on the run\'s one job server, with at least two map splits and two reduce tasks', () => {
    const record = JSON.parse(readFileSync(join(dirs.hadoop as string, 'run.json'), 'utf8')) as RunRecord;
    expect(record.variants.map((v) => v.name)).toEqual(VARIANTS);
    for (const v of record.variants) {
      const extra = v.backend_extra as { hadoop: string; job_server: string; jobs: { name: string; map_tasks: number; reduce_tasks: number }[] };
      expect(extra.hadoop).toMatch(/^Apache Hadoop 3\.4\.\d+ local mode/);
      expect(extra.job_server).toBe('one JVM for the run');
      expect(extra.jobs.length).toBeGreaterThan(0);
      for (const j of extra.jobs) {
        expect(j.map_tasks, `${v.name} ${j.name}`).toBeGreaterThanOrEqual(2);
        expect([0, 2], `${v.name} ${j.name}`).toContain(j.reduce_tasks);
      }
    }
  });
});
