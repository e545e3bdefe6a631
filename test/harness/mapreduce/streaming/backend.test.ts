/**
 * The streaming backend on a toy algorithm (map-only job, combiners, side data, counters),
 * compared with the same computation done by brute force in plain TypeScript.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError, InterruptedError, UserError } from '../../../../harness/errors.ts';
import { createStreamingBackend } from '../../../../harness/mapreduce/streaming/backend.ts';
import { streamingBackendSchema } from '../../../../harness/mapreduce/streaming/config.ts';
import { expectedToy, makeContext, pairsOf, processesMentioning, removeTempDirs, tempDir, TOY_DOCS, toyJobScript, toyVariant } from './toy/fixture.ts';

let script = '';
beforeAll(async () => {
  script = await toyJobScript();
});

const config = (extra: Record<string, unknown> = {}) => streamingBackendSchema.parse({ kind: 'streaming', ...extra });

afterAll(removeTempDirs);

describe('streaming backend', () => {
  it('computes the toy algorithm exactly as brute force does, and sums the counters of every task', async () => {
    const backend = createStreamingBackend(config(), { jobScript: script, pricePerVcpuHour: 0.05 });
    const variant = toyVariant({ max_df: 3 });
    const expected = expectedToy(TOY_DOCS, { max_df: 3 });
    const r = await backend.run(variant, makeContext(TOY_DOCS));
    expect(pairsOf(r.outputs.pairs)).toEqual(expected.pairs);
    expect(expected.pairs.length).toBeGreaterThan(3);
    expect(r.counters).toEqual({
      toy: { documents: TOY_DOCS.texts.length, 'distinct words': expected.distinctWords, 'pairs_ emitted': expected.postingPairs },
    });
    expect(r.cpuS).toBeGreaterThan(0);
    expect(r.costUsd).toBeCloseTo((r.cpuS / 3600) * 0.05, 12);
    expect(r.runtimeS).toBeGreaterThan(0);
    await backend.close();
  });

  it('gives the same result with three reducers and map splits capped by split_mb', async () => {
    // split_mb = 210 bytes: the documents file (~420 bytes) is cut into more splits than map_tasks asks for.
    const backend = createStreamingBackend(config({ map_tasks: 1, reduce_tasks: 3, split_mb: 0.0002 }), { jobScript: script });
    const variant = toyVariant({ max_df: 1000 });
    const r = await backend.run(variant, makeContext(TOY_DOCS));
    expect(pairsOf(r.outputs.pairs)).toEqual(expectedToy(TOY_DOCS, { max_df: 1000 }).pairs);
    const jobs = (r.extra?.jobs ?? []) as { name: string; map_tasks: number; reduce_tasks: number }[];
    expect(jobs.find((j) => j.name === 'clean')?.map_tasks).toBeGreaterThan(1);
    expect(jobs.find((j) => j.name === 'counts')?.reduce_tasks).toBe(3);
  });

  it('makes a task that fails once another attempt from scratch: pairs and counters as in a clean run, failed attempts counted', async () => {
    const markers = tempDir('ndd-fail-once-');
    const backend = createStreamingBackend(config(), { jobScript: script });
    // One task each of `clean` (map-only), `counts` (map into partitions) and `scores` (reduce)
    // writes 10,000 junk records and fails on its first attempt.
    const r = await backend.run(toyVariant({ max_df: 3, fail_once: markers }), makeContext(TOY_DOCS));
    const expected = expectedToy(TOY_DOCS, { max_df: 3 });
    expect(pairsOf(r.outputs.pairs)).toEqual(expected.pairs);
    expect(r.counters).toEqual({
      toy: { documents: TOY_DOCS.texts.length, 'distinct words': expected.distinctWords, 'pairs_ emitted': expected.postingPairs },
    });
    expect(readdirSync(markers).sort()).toEqual(['clean-map', 'counts-map', 'scores-reduce']);
    expect(r.extra?.max_attempts).toBe(4);
    expect(r.extra?.failed_attempts).toBe(3);
    const list = r.extra?.failed_attempt_list as { job: string; phase: string; task: number; attempt: number; error: string }[];
    expect(list.map((a) => `${a.job} ${a.phase} ${a.attempt}`).sort()).toEqual(['clean map 1', 'counts map 1', 'scores reduce 1']);
    expect(list.find((a) => a.job === 'scores')?.error).toBe('reducer exited with code 1: ndd-job scores reduce: planted first-attempt failure in scores reduce');
  });

  it('fails a task that fails every attempt after max_attempts, naming the job, task, attempt and its stderr, leaving no process', async () => {
    const backend = createStreamingBackend(config({ max_attempts: 2 }), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const failing = toyVariant({ fail_on: 'completely' }); // only in document 6
    const err = await backend.run(failing, ctx).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const [head, ...tail] = (err?.message ?? '').split('\n');
    expect(head).toMatch(/^streaming: job clean: map task \d: attempt 2 of 2: mapper exited with code 1; last lines of its stderr:$/);
    // the job script's stack, then its one-line summary
    expect(tail.length).toBeGreaterThan(1);
    expect(tail.at(-1)).toBe('  ndd-job clean map: planted failure in document 6');
    expect(processesMentioning(ctx.workDir)).toEqual([]);
  });

  it('fails with a one-line DataError (exit 2) when a task stops at a bad input file a parameter names', async () => {
    const backend = createStreamingBackend(config({ max_attempts: 1 }), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const err = await backend.run(toyVariant({ bad_file_on: 'completely' }), ctx).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(DataError);
    expect(err?.message).toMatch(/^streaming: job clean: map task \d: ndd-job clean map: toy\.tsv:3: planted bad line$/);
    expect(processesMentioning(ctx.workDir)).toEqual([]);
  });

  it('makes no further attempt once the run is aborted', async () => {
    const ac = new AbortController();
    const failedAttempts: string[] = [];
    const ctx = {
      ...makeContext(TOY_DOCS, ac.signal),
      progress: (phase: string) => {
        if (!/attempt \d+ failed/.test(phase)) return;
        failedAttempts.push(phase);
        ac.abort(); // Ctrl-C while the task is being attempted again
      },
    };
    const backend = createStreamingBackend(config({ max_attempts: 50 }), { jobScript: script });
    const err = await backend.run(toyVariant({ fail_on: 'completely' }), ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InterruptedError);
    expect(failedAttempts).toEqual([expect.stringMatching(/^clean map: task \d attempt 1 failed, attempt 2 of 50$/)]);
    expect(processesMentioning(ctx.workDir)).toEqual([]);
  });

  it('takes max_attempts from the config: at least 1, default 4', () => {
    expect(config().max_attempts).toBe(4);
    expect(config({ max_attempts: 1 }).max_attempts).toBe(1);
    expect(() => config({ max_attempts: 0 })).toThrow();
    expect(() => config({ max_attempts: 1.5 })).toThrow();
  });

  it('kills every child and throws InterruptedError when the run is aborted mid-task', async () => {
    const ac = new AbortController();
    const ctx = makeContext(TOY_DOCS, ac.signal);
    const backend = createStreamingBackend(config(), { jobScript: script });
    const run = backend.run(toyVariant(), ctx);
    const settled = run.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    let finished = false;
    void settled.then(() => (finished = true));
    // Abort as soon as a task process of this run is seen alive.
    let seen = false;
    while (!seen && !finished) {
      seen = processesMentioning(ctx.workDir).length > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 5));
    }
    ac.abort();
    expect(await settled).toBeInstanceOf(InterruptedError);
    expect(processesMentioning(ctx.workDir)).toEqual([]);
  });

  it('names the sort command when it cannot be started, as a user error, without attempting again', async () => {
    const failed: string[] = [];
    const ctx = { ...makeContext(TOY_DOCS), progress: (phase: string) => void (/failed/.test(phase) && failed.push(phase)) };
    const backend = createStreamingBackend(config({ sort: 'no-such-sort-command' }), { jobScript: script });
    const err = await backend.run(toyVariant(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      "streaming: backend.sort 'no-such-sort-command' cannot be started (spawn no-such-sort-command ENOENT): give the path of GNU sort",
    );
    expect(failed).toEqual([]);
  });
});
