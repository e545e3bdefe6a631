/**
 * The `hadoop` backend on a real cluster: Apache Hadoop's mini cluster (HDFS and YARN with
 * MapReduce's ApplicationMaster, in one JVM started once for this file; test/support/mini-cluster.ts)
 * through an installation (`HADOOP_HOME`) whose site files name it, as a user's own cluster is
 * reached. The backend runs unchanged: documents, job script and spec staged to HDFS with
 * `hadoop fs -put`, every job a YARN application in its ApplicationMaster's container (uber mode:
 * its two map splits and two reduce tasks run one after another in that JVM, through Hadoop's own
 * spill, sort, merge and shuffle by partition), outputs read back with `hadoop fs -get`, the HDFS
 * folder removed. Pairs, spans, metrics and counters must be the local backend's, byte for byte.
 *
 * Every detector of the every-detector test, 47 jobs: a YARN job costs 8-14 s here however small
 * (the client's JVM, the container's localization and JVM, the ApplicationMaster's start;
 * docs/backends.md), about ten minutes for the file on a quiet machine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import { ensureHadoopJars, ensureMiniClusterJars } from '../../../../harness/mapreduce/hadoop/install.ts';
import type { RunRecord } from '../../../../harness/results/types.ts';
import { expectSameResults, writeEveryDetectorConfig } from '../../../support/every-detector.ts';
import { startMiniCluster, type MiniCluster } from '../../../support/mini-cluster.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { runOptions } from '../../../support/run-options.ts';

const log = (line: string) => console.log(`ensure-hadoop: ${line}`);
const client = ensureHadoopJars(log);
const mini = client.found ? ensureMiniClusterJars(log) : client;
const WHAT = "the hadoop backend on Hadoop's mini cluster (HDFS and YARN)";
const WHY = !client.found ? client.reason : !mini.found ? mini.reason : '';
// Every detector of the every-detector config: 47 YARN jobs
const VARIANTS = ['ground-truth', 'mod', 'sct', 'adaptive', 'simhash', 'imatch', 'ppjoin', 'minhash', 'pdc-shingles', 'pdc-imatch', 'pdc-spotsigs', 'spotsigs'];

let root: string;
let cluster: MiniCluster | undefined;
const dirs: Record<string, string> = {};
const previousHome = process.env['HADOOP_HOME'];
// Aborted after the file (a setup that timed out leaves its run going otherwise, with its Hadoop
// clients in process groups of their own), and awaited, so that the backend stops them.
const stop = new AbortController();
let running: Promise<unknown> | undefined;

// 650-770 s alone; at load 10-16 it passed 900 s twice: 30 minutes, well inside CI's 90.
beforeAll(async () => {
  if (!client.found || !mini.found) return requireTool(false, WHAT, WHY);
  root = mkdtempSync(join(tmpdir(), 'hadoop-mini-run-'));
  const config = await writeEveryDetectorConfig(root, [
    `- { kind: hadoop, installation: auto, staging_dir: "hdfs:///tmp/ndd", map_tasks: 2, reduce_tasks: 2, node: ${JSON.stringify(process.execPath)} }`,
  ]);
  const local = runExperiment(runOptions(config, join(root, 'results'), { only: VARIANTS, signal: stop.signal }));
  running = local;
  cluster = await startMiniCluster(mini, client);
  console.log(`mini cluster: started in ${(cluster.startMs / 1000).toFixed(1)} s at ${cluster.defaultFs}`);
  const l = await local;
  if (l.kind !== 'completed') throw new Error('local: the run did not complete');
  dirs.local = l.dir;
  process.env['HADOOP_HOME'] = cluster.home;
  const t0 = Date.now();
  running = runExperiment(runOptions(config, join(root, 'results'), { only: VARIANTS, backendKind: 'hadoop', signal: stop.signal }));
  const r = (await running) as Awaited<ReturnType<typeof runExperiment>>;
  console.log(`mini cluster: the run took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (r.kind === 'completed') console.log(`mini cluster: ${jobTimes(r.dir)}`);
  if (r.kind !== 'completed') throw new Error('hadoop: the run did not complete');
  dirs.hadoop = r.dir;
}, 1_800_000);
/** The run's YARN jobs and their time (as the client saw each job run, from submission to its end). */
function jobTimes(dir: string): string {
  const record = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord;
  const times = record.variants.flatMap((v) => (v.backend_extra as { jobs: { runtime_s: number }[] }).jobs.map((j) => j.runtime_s));
  const sum = times.reduce((a, b) => a + b, 0);
  return `${times.length} jobs, ${sum.toFixed(1)} s in all (${Math.min(...times).toFixed(1)}-${Math.max(...times).toFixed(1)} s each)`;
}

afterAll(async () => {
  stop.abort();
  await running?.catch(() => undefined);
  if (previousHome === undefined) delete process.env['HADOOP_HOME'];
  else process.env['HADOOP_HOME'] = previousHome;
  await cluster?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
}, 60_000);

describe.skipIf(skipsWithout(client.found && mini.found, WHAT, WHY))("the hadoop backend on Hadoop's mini cluster", () => {
  it("writes the local backend's pairs, spans, metrics and counters", () => {
    expectSameResults(dirs.hadoop as string, dirs.local as string, 'mini cluster');
  });

  it('ran every job as a YARN application on the cluster, with two map splits and two reduce tasks', () => {
    const record = JSON.parse(readFileSync(join(dirs.hadoop as string, 'run.json'), 'utf8')) as RunRecord;
    expect(record.variants.map((v) => v.name)).toEqual(VARIANTS);
    for (const v of record.variants) {
      const extra = v.backend_extra as { hadoop: string; jobs: { name: string; map_tasks: number; reduce_tasks: number; hadoop_counters: Record<string, Record<string, number>> }[] };
      expect(extra.hadoop).toContain(join(cluster!.home, 'bin', 'hadoop'));
      expect(extra.jobs.length).toBeGreaterThan(0);
      for (const j of extra.jobs) {
        const label = `${v.name} ${j.name}`;
        expect(j.map_tasks, label).toBeGreaterThanOrEqual(2);
        expect([0, 2], label).toContain(j.reduce_tasks);
        // YARN's own counters: each task ran in the job's ApplicationMaster (uber mode), and
        // the maps read their input from HDFS
        const job = j.hadoop_counters['Job Counters'] ?? {};
        expect(job['NUM_UBER_SUBMAPS'], label).toBe(j.map_tasks);
        expect(job['NUM_UBER_SUBREDUCES'] ?? 0, label).toBe(j.reduce_tasks);
        expect(j.hadoop_counters['File System Counters']?.['HDFS: Number of bytes read'], label).toBeGreaterThan(0);
      }
    }
  });
});
