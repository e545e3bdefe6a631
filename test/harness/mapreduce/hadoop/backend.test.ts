/**
 * The `hadoop` backend on Apache Hadoop's own streaming runtime (local mode from the pinned
 * jars, and an installation's `bin/hadoop`), with the toy algorithm of the streaming tests:
 * a map-only job, combiners, side data shipped with -files, counters through
 * `reporter:counter:`, compared with the same computation done by brute force; a failing task,
 * a bad input file and an abort end as on every backend, leaving no process or folder behind.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError, InterruptedError } from '../../../../harness/errors.ts';
import { createHadoopBackend } from '../../../../harness/mapreduce/hadoop/backend.ts';
import { hadoopBackendSchema } from '../../../../harness/mapreduce/hadoop/config.ts';
import { ensureHadoopJars } from '../../../../harness/mapreduce/hadoop/install.ts';
import { writeHadoopHome } from '../../../support/hadoop-home.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { expectedToy, makeContext, pairsOf, processesMentioning, removeTempDirs, tempDir, TOY_DOCS, toyJobScript, toyVariant } from '../streaming/toy/fixture.ts';

const jars = ensureHadoopJars((line) => console.log(`ensure-hadoop: ${line}`));
const WHAT = "the tests on Hadoop's own streaming runtime";

const config = (extra: Record<string, unknown> = {}) =>
  hadoopBackendSchema.parse({ kind: 'hadoop', installation: 'pinned', map_tasks: 2, reduce_tasks: 2, ...extra });

let script = '';
beforeAll(async () => {
  if (!jars.found) return requireTool(false, WHAT, jars.reason);
  script = await toyJobScript();
});
afterAll(removeTempDirs);

describe.skipIf(skipsWithout(jars.found, WHAT, jars.found ? '' : jars.reason))('hadoop backend', () => {
  it('computes the toy algorithm as brute force does in local mode, with two map splits, and sums the counters', async () => {
    const backend = createHadoopBackend(config(), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const expected = expectedToy(TOY_DOCS, { max_df: 3 });
    const r = await backend.run(toyVariant({ max_df: 3 }), ctx);
    expect(pairsOf(r.outputs.pairs)).toEqual(expected.pairs);
    expect(expected.pairs.length).toBeGreaterThan(3);
    expect(r.counters).toEqual({
      toy: { documents: TOY_DOCS.texts.length, 'distinct words': expected.distinctWords, 'pairs_ emitted': expected.postingPairs },
    });
    const jobs = (r.extra as { jobs: { name: string; map_tasks: number; reduce_tasks: number; hadoop_counters: Record<string, Record<string, number>> }[] }).jobs;
    expect(jobs.map((j) => j.name)).toEqual(['clean', 'counts', 'postings', 'scores']);
    // the documents file is split in two; the later jobs read two part files each
    for (const j of jobs) expect(j.map_tasks, j.name).toBeGreaterThanOrEqual(2);
    expect(jobs.map((j) => j.reduce_tasks)).toEqual([0, 2, 2, 2]);
    // Hadoop's own framework counters, kept per job: the clean job read every document
    expect(jobs[0]?.hadoop_counters['Map-Reduce Framework']?.['Map input records']).toBe(TOY_DOCS.texts.length);
    // the variant's folder is gone; the run's job server keeps its own until the backend closes
    expect(readdirSync(ctx.workDir)).toEqual([expect.stringMatching(/^hadoop-jvm-/)]);
    await backend.close();
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 120_000);

  it("runs a run's variants on one JVM, each job with its own -files, whatever was left in the JVM's working folder", async () => {
    const backend = createHadoopBackend(config(), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const first = await backend.run(toyVariant({ max_df: 3 }), ctx);
    expect(pairsOf(first.outputs.pairs)).toEqual(expectedToy(TOY_DOCS, { max_df: 3 }).pairs);
    const [server] = readdirSync(ctx.workDir);
    const jvm = processesMentioning(join(ctx.workDir, server as string));
    expect(jvm.length).toBeGreaterThan(0);
    // Links of the names the next job ships, left where Hadoop links its -files: Hadoop links a
    // name only when nothing is there, so the next job would run this spec and this script.
    const cwd = join(ctx.workDir, server as string, 'cwd');
    writeFileSync(join(cwd, 'stale-spec.json'), JSON.stringify({ algorithm: 'toy', params: { max_df: 1, fail_on: 'the' }, minScore: 0, seed: 1 }));
    symlinkSync(join(cwd, 'stale-spec.json'), join(cwd, 'spec.json'));
    writeFileSync(join(cwd, 'ndd-job.js'), 'process.exit(3);\n');
    const second = await backend.run(toyVariant({ max_df: 5 }), ctx);
    const expected = expectedToy(TOY_DOCS, { max_df: 5 });
    expect(pairsOf(second.outputs.pairs)).toEqual(expected.pairs);
    expect(expected.pairs).not.toEqual(expectedToy(TOY_DOCS, { max_df: 3 }).pairs);
    // the same JVM ran both, and its CPU is counted in the variant's
    expect(processesMentioning(join(ctx.workDir, server as string))).toEqual(jvm);
    expect((second.extra as { job_server: string }).job_server).toBe('one JVM for the run');
    expect((second.extra as { jvm_and_task_cpu_s: number }).jvm_and_task_cpu_s).toBeGreaterThan(0.5);
    await backend.close();
    expect(processesMentioning(ctx.workDir)).toEqual([]);
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 120_000);

  it("sets and reads local files' permissions in the JVM: no chmod, ls or readlink process", async () => {
    // Without Hadoop's native library, its local file system forks these for every file it
    // creates (about 78 a job); the job server's NioLocalFileSystem makes the calls in process.
    // Stand-ins first on the PATH log every call and then do the real command's work.
    const bin = tempDir('hadoop-fake-bin-');
    const calls = join(bin, 'calls.log');
    writeFileSync(calls, '');
    for (const tool of ['chmod', 'ls', 'readlink']) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho ${tool} >> '${calls}'\nexec /usr/bin/env -i PATH=/usr/bin:/bin ${tool} "$@"\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    const backend = createHadoopBackend(config(), { jobScript: script, env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` } });
    const ctx = makeContext(TOY_DOCS);
    const r = await backend.run(toyVariant({ max_df: 3 }), ctx);
    await backend.close();
    expect(pairsOf(r.outputs.pairs)).toEqual(expectedToy(TOY_DOCS, { max_df: 3 }).pairs);
    expect(readFileSync(calls, 'utf8')).toBe('');
  }, 120_000);

  it('fails the run with the failing task’s own last line, and leaves nothing behind', async () => {
    const backend = createHadoopBackend(config(), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const run = backend.run(toyVariant({ fail_on: 'zebra' }), ctx);
    await expect(run).rejects.toThrow(/hadoop: job-0: the streaming job ended with code 1; the task said: ndd-job clean map: planted failure in document (3|9)\b/);
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 120_000);

  it('reports a bad input file a parameter names as a DataError', async () => {
    const backend = createHadoopBackend(config(), { jobScript: script });
    const run = backend.run(toyVariant({ bad_file_on: 'zebra' }), makeContext(TOY_DOCS));
    await expect(run).rejects.toBeInstanceOf(DataError);
    await expect(run).rejects.toThrow(/ndd-job clean map: toy\.tsv:3: planted bad line/);
  }, 120_000);

  it('stops the JVM and its task processes at an abort, and removes its folder', async () => {
    const controller = new AbortController();
    const ctx = makeContext(TOY_DOCS, controller.signal);
    const backend = createHadoopBackend(config(), { jobScript: script });
    const run = backend.run(toyVariant(), ctx);
    // abort once the first job's JVM runs
    for (let i = 0; i < 600 && processesMentioning(ctx.workDir).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesMentioning(ctx.workDir).length).toBeGreaterThan(0);
    controller.abort(new Error('Ctrl-C'));
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
    expect(processesMentioning(ctx.workDir)).toEqual([]);
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 120_000);

  it("runs on an installation's bin/hadoop: staged with hadoop fs, read back, the staging folder removed", async () => {
    if (!jars.found) return;
    // An unconfigured installation as Apache's tarball lays it out (local mode, file system file:///).
    const home = writeHadoopHome({ home: tempDir('hadoop-home-'), streamingJar: jars.streamingJar, version: jars.version, lib: jars.lib });
    const staging = join(tempDir('hadoop-staging-'), 'ndd');
    const backend = createHadoopBackend(config({ installation: 'auto', staging_dir: staging }), {
      jobScript: script,
      env: { ...process.env, HADOOP_HOME: home },
    });
    const ctx = makeContext(TOY_DOCS);
    const r = await backend.run(toyVariant({ max_df: 3 }), ctx);
    expect(pairsOf(r.outputs.pairs)).toEqual(expectedToy(TOY_DOCS, { max_df: 3 }).pairs);
    expect((r.extra as { hadoop: string }).hadoop).toContain(join(home, 'bin', 'hadoop'));
    expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 180_000);
});
