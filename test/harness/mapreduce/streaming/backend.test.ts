/**
 * The streaming backend on a toy algorithm (map-only job, combiners, side data, counters),
 * compared with the same computation done by brute force in plain TypeScript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../../harness/errors.ts';
import { createStreamingBackend } from '../../../../harness/mapreduce/streaming/backend.ts';
import { streamingBackendSchema } from '../../../../harness/mapreduce/streaming/config.ts';
import { expectedToy, makeContext, pairsOf, processesMentioning, removeTempDirs, TOY_DOCS, toyJobScript, toyVariant } from './toy/fixture.ts';

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
    const expected = expectedToy(TOY_DOCS, { max_df: 3, fail_on: null });
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
    expect(pairsOf(r.outputs.pairs)).toEqual(expectedToy(TOY_DOCS, { max_df: 1000, fail_on: null }).pairs);
    const jobs = (r.extra?.jobs ?? []) as { name: string; map_tasks: number; reduce_tasks: number }[];
    expect(jobs.find((j) => j.name === 'clean')?.map_tasks).toBeGreaterThan(1);
    expect(jobs.find((j) => j.name === 'counts')?.reduce_tasks).toBe(3);
  });

  it('fails a run whose mapper throws with the job, phase, task and the last stderr line, leaving no process', async () => {
    const backend = createStreamingBackend(config(), { jobScript: script });
    const ctx = makeContext(TOY_DOCS);
    const failing = toyVariant({ fail_on: 'completely' }); // only in document 6
    const err = await backend.run(failing, ctx).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/^streaming: job clean: map task \d: mapper exited with code 1: ndd-job clean map: planted failure in document 6$/);
    expect(processesMentioning(ctx.workDir)).toEqual([]);
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

  it('names the sort command when it cannot be started', async () => {
    const backend = createStreamingBackend(config({ sort: 'no-such-sort-command' }), { jobScript: script });
    await expect(backend.run(toyVariant(), makeContext(TOY_DOCS))).rejects.toThrow(
      /^streaming: job counts: map task \d: sort could not start: spawn no-such-sort-command ENOENT$/,
    );
  });
});
