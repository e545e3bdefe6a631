/**
 * The `spark` backend on Apache Spark `local[2]` (the pinned pyspark), with the toy algorithm of
 * the streaming tests: a map-only job, combiners, side data shipped with addFile, counters from
 * the tasks' `reporter:counter:` lines, compared with the same computation done by brute force;
 * a task that fails once is retried by Spark with its counters counted once; a job that fails,
 * a bad input file and an abort end as on every backend, leaving no process or folder behind.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError, InterruptedError } from '../../../../harness/errors.ts';
import { createSparkBackend } from '../../../../harness/mapreduce/spark/backend.ts';
import { sparkBackendSchema } from '../../../../harness/mapreduce/spark/config.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { expectedToy, makeContext, pairsOf, processesMentioning, removeTempDirs, tempDir, TOY_DOCS, toyJobScript, toyVariant } from '../streaming/toy/fixture.ts';
import { sparkSetup } from './spark-setup.ts';

const spark = sparkSetup();
const WHAT = 'the tests on Apache Spark local[2]';

const config = (extra: Record<string, unknown> = {}) =>
  sparkBackendSchema.parse({ kind: 'spark', master: 'local[2]', map_tasks: 2, reduce_tasks: 2, ...(spark.found ? { python: spark.python } : {}), ...extra });

let script = '';
beforeAll(async () => {
  if (!spark.found) return requireTool(false, WHAT, spark.reason);
  script = await toyJobScript();
});
afterAll(removeTempDirs);

const TOY_COUNTERS = () => {
  const expected = expectedToy(TOY_DOCS, { max_df: 3 });
  return { toy: { documents: TOY_DOCS.texts.length, 'distinct words': expected.distinctWords, 'pairs_ emitted': expected.postingPairs } };
};

describe.skipIf(skipsWithout(spark.found, WHAT, spark.found ? '' : spark.reason))('spark backend', () => {
  it('computes the toy algorithm as brute force does, with two map and two reduce partitions, and sums the counters', async () => {
    const backend = createSparkBackend(config(), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const expected = expectedToy(TOY_DOCS, { max_df: 3 });
    const r = await backend.run(toyVariant({ max_df: 3 }), ctx);
    expect(pairsOf(r.outputs.pairs)).toEqual(expected.pairs);
    expect(expected.pairs.length).toBeGreaterThan(3);
    expect(r.counters).toEqual(TOY_COUNTERS());
    const jobs = (r.extra as { jobs: { name: string; map_tasks: number; reduce_tasks: number }[] }).jobs;
    expect(jobs.map((j) => j.name)).toEqual(['clean', 'counts', 'postings', 'scores']);
    for (const j of jobs) expect(j.map_tasks, j.name).toBeGreaterThanOrEqual(2);
    expect(jobs.map((j) => j.reduce_tasks)).toEqual([0, 2, 2, 2]);
    // The JVM (waited for by the driver) with its Python workers and task processes: starting a JVM alone costs more than a CPU-second.
    expect(r.cpuS).toBeGreaterThan(1);
    expect(readdirSync(ctx.workDir)).toEqual([]);
    await backend.close();
  }, 300_000);

  it('has Spark attempt a failed task again, its partial output dropped and its counters counted once', async () => {
    const markers = mkdtempSync(join(tempDir('spark-markers-'), 'm-'));
    const backend = createSparkBackend(config(), { jobScript: script });
    // One task each of `clean` (map-only), `counts` (map into partitions) and `scores` (reduce)
    // writes 10,000 junk records and fails on its first attempt.
    const r = await backend.run(toyVariant({ max_df: 3, fail_once: markers }), makeContext(TOY_DOCS));
    expect(pairsOf(r.outputs.pairs)).toEqual(expectedToy(TOY_DOCS, { max_df: 3 }).pairs);
    expect(r.counters).toEqual(TOY_COUNTERS());
    expect(readdirSync(markers).sort()).toEqual(['clean-map', 'counts-map', 'scores-reduce']);
  }, 300_000);

  it('fails the run with the failing task’s own last line after max_attempts, and leaves nothing behind', async () => {
    const backend = createSparkBackend(config({ max_attempts: 2 }), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const err = await backend.run(toyVariant({ fail_on: 'completely' }), ctx).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const [head, ...tail] = (err?.message ?? '').split('\n');
    expect(head).toMatch(/^spark: toy: job clean failed; the task said: job clean map task \d: ndd-job clean map: planted failure in document 6; end of the driver's log:$/);
    expect(tail.length).toBeGreaterThan(0);
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 300_000);

  it('reports a bad input file a parameter names as a DataError', async () => {
    const backend = createSparkBackend(config({ max_attempts: 1 }), { jobScript: script });
    const run = backend.run(toyVariant({ bad_file_on: 'zebra' }), makeContext(TOY_DOCS));
    await expect(run).rejects.toBeInstanceOf(DataError);
    await expect(run).rejects.toThrow(/^spark: job clean map task \d: ndd-job clean map: toy\.tsv:3: planted bad line$/);
  }, 300_000);

  it("stops the driver, Spark's JVM and the task processes at an abort, and removes its folder", async () => {
    const controller = new AbortController();
    const ctx = makeContext(TOY_DOCS, controller.signal);
    const backend = createSparkBackend(config(), { jobScript: script });
    const run = backend.run(toyVariant(), ctx);
    // abort once Spark's JVM runs (the driver's child, its spark.local.dir in the work folder)
    const cmdline = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return ''; // the process ended while we looked
      }
    };
    const jvm = () => processesMentioning(ctx.workDir).filter((pid) => /(^|\/)java$/.test(cmdline(pid).split('\0')[0] ?? ''));
    for (let i = 0; i < 2400 && jvm().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(jvm().length).toBeGreaterThan(0);
    controller.abort(new Error('Ctrl-C'));
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
    expect(processesMentioning(ctx.workDir)).toEqual([]);
    expect(readdirSync(ctx.workDir)).toEqual([]);
  }, 300_000);
});
