import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerModule, type DocumentSet, type StoreCodec } from '../../../contract/index.ts';
import { makeKernelContext } from '../../../harness/runtime/kernel-context.ts';
import { readThreadCount, PARALLEL_MIN_BYTES } from '../../../harness/runtime/read-threads.ts';
import { createRuntime } from '../../../harness/runtime/runtime.ts';
import { ValueStore } from '../../../harness/runtime/stored-values.ts';
import { runHere } from '../../../harness/runtime/tasks.ts';
import type * as Echo from '../../fixtures/pool/echo.ts';

const root = mkdtempSync(join(tmpdir(), 'ndd-runtime-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ECHO = workerModule<typeof Echo>(new URL('../../fixtures/pool/echo.ts', import.meta.url).href);
const docs = (texts: string[]): DocumentSet => ({ ids: texts.map((_, i) => `d${i}`), texts });
const codec: StoreCodec<Uint32Array> = {
  key: 'runtime-test:lengths',
  describe: 'text lengths',
  encode: (v) => ({ meta: {}, arrays: [v] }),
  decode: (f) => f.arrays[0] as Uint32Array,
};
const lengths = (d: DocumentSet): Uint32Array => Uint32Array.from(d.texts, (t) => t.length);

describe('worker tasks as typed handles', () => {
  it('name an export the module has, with its payload and answer types', async () => {
    const answer: number = await runHere(ECHO.task('length'), { data: new Uint32Array(4) });
    expect(answer).toBe(4);
    // @ts-expect-error: the module has no such export, so the handle does not compile
    expect(() => ECHO.task('lengthOf')).not.toThrow();
    // @ts-expect-error: the payload is the export's
    void runHere(ECHO.task('length'), { data: 'four' }).catch(() => undefined);
  });
});

describe('the runtime', () => {
  it('runs tasks on its threads, and on the calling thread with one worker', async () => {
    for (const workers of [1, 2]) {
      const runtime = createRuntime({ workers });
      try {
        expect(await runtime.run(ECHO.task('length'), { data: new Uint32Array(3) })).toBe(3);
      } finally {
        await runtime.close('finished');
      }
    }
  });

  it('computes a stored value without a store, and with one replays it in a later run, writing only a finished run’s values', async () => {
    const d = docs(['one', 'three']);
    const none = createRuntime();
    expect([...(await none.stored(d, codec, () => lengths(d)))]).toEqual([3, 5]);
    await none.close('finished');

    const store = (): ValueStore => new ValueStore({ dir: join(root, 'stored'), maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    const interrupted = createRuntime({ store: store() });
    await interrupted.stored(d, codec, () => lengths(d));
    await interrupted.close('interrupted');
    expect(store().peek(d, codec)).toBeUndefined();

    const first = createRuntime({ store: store() });
    await first.stored(d, codec, () => lengths(d));
    await first.close('finished');
    const second = createRuntime({ store: store() });
    expect([...(await second.stored(d, codec, () => expect.fail('computed again')))]).toEqual([3, 5]);
    await second.close('finished');
  });
});

describe('a kernel context', () => {
  const tasks = { parallelism: 1, run: runHere, worthThreads: () => false };

  it('computes a cached value once per cache, and again after a failure', async () => {
    const cache = new Map<string, Promise<unknown>>();
    const k = makeKernelContext({ docs: docs(['a']), tasks, memoryBudgetBytes: 1, workDir: root, signal: new AbortController().signal, cache }).ctx;
    let calls = 0;
    await expect(k.cached('x', () => Promise.reject(new Error('once')))).rejects.toThrow('once');
    expect(await k.cached('x', async () => ++calls)).toBe(1);
    expect(await k.cached('x', async () => ++calls)).toBe(1);
  });

  it('says what it replayed from the store, and counts every call or only nonzero amounts', async () => {
    const d = docs(['four']);
    const dir = join(root, 'replay');
    const first = new ValueStore({ dir, maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    await first.get(d, codec, async () => lengths(d));
    await first.flush();
    const store = new ValueStore({ dir, maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    for (const counting of ['every-call', 'nonzero'] as const) {
      const scope = makeKernelContext({ docs: d, tasks, memoryBudgetBytes: 1, workDir: root, signal: new AbortController().signal, cache: new Map(), store, counting });
      expect([...(await scope.ctx.stored(codec, async () => expect.fail('computed')))]).toEqual([4]);
      scope.ctx.count('g', 'zero', 0);
      scope.ctx.count('g', 'one');
      expect({ replayed: scope.replayed, computed: scope.computed, counters: scope.counters }).toEqual({
        replayed: ['text lengths'],
        computed: [],
        counters: { g: counting === 'every-call' ? { zero: 0, one: 1 } : { one: 1 } },
      });
    }
  });

  it('says what it computed, with a store or without one, and not what an earlier variant of the run computed', async () => {
    const d = docs(['four', 'five!']);
    const cache = new Map<string, Promise<unknown>>();
    const store = new ValueStore({ dir: join(root, 'compute'), maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    const first = makeKernelContext({ docs: d, tasks, memoryBudgetBytes: 1, workDir: root, signal: new AbortController().signal, cache, store });
    expect([...(await first.ctx.stored(codec, async () => lengths(d)))]).toEqual([4, 5]);
    expect({ replayed: first.replayed, computed: first.computed }).toEqual({ replayed: [], computed: ['text lengths'] });
    const later = makeKernelContext({ docs: d, tasks, memoryBudgetBytes: 1, workDir: root, signal: new AbortController().signal, cache, store });
    await later.ctx.stored(codec, async () => expect.fail('computed twice'));
    expect({ replayed: later.replayed, computed: later.computed }).toEqual({ replayed: [], computed: [] });
    const alone = makeKernelContext({ docs: d, tasks, memoryBudgetBytes: 1, workDir: root, signal: new AbortController().signal, cache: new Map() });
    await alone.ctx.stored(codec, async () => lengths(d));
    expect(alone.computed).toEqual(['text lengths']);
  });
});

describe('how many threads a read parses on', () => {
  it('as asked; else NDD_BENCH_READ_THREADS; else by the input’s size, and never for a parse not worth a thread', () => {
    expect(readThreadCount({ estimatedBytes: 0, workers: 3 }, {})).toBe(3);
    expect(readThreadCount({ estimatedBytes: 0 }, { NDD_BENCH_READ_THREADS: '2' })).toBe(2);
    expect(readThreadCount({ estimatedBytes: PARALLEL_MIN_BYTES - 1 }, {})).toBe(1);
    expect(readThreadCount({ estimatedBytes: PARALLEL_MIN_BYTES, worthThreads: false }, {})).toBe(1);
  });

  it('a runtime of several workers lends them to a read without starting others, and one of one worker lends none', async () => {
    const runtime = createRuntime({ workers: 2 });
    try {
      const lease = runtime.reads.lease({ estimatedBytes: 0, workers: 2, preload: ECHO.url });
      expect(await lease?.pool.run(ECHO.task('length'), { data: new Uint32Array(2) })).toBe(2);
      await lease?.release(true);
      expect(runtime.reads.lease({ estimatedBytes: 0, workers: 1, preload: ECHO.url })).toBeUndefined();
    } finally {
      await runtime.close('finished');
    }
  });
});
