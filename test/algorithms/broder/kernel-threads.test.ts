/**
 * The Broder kernel joins on the calling thread when the join is small and no worker thread is
 * up (kernel.ts INLINE_JOIN_STEPS), else on the threads: the same pairs and counters either way.
 */
import { describe, expect, it } from 'vitest';
import { findAdapter } from '../../../algorithms/registry.ts';
import { INLINE_JOIN_STEPS, joinsInline } from '../../../algorithms/broder/kernel.ts';
import type { Counters, KernelContext, StoreCodec } from '../../../contract/index.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { pairRows } from '../../support/kernel-and-jobs.ts';

/** A kernel context whose worker tasks run here, recorded by export name, with threads up or not. */
async function run(threadsUp: boolean): Promise<{ rows: string[]; counters: Counters; tasks: string[] }> {
  const broder = (await findAdapter('broder'))!;
  const plan = broder.plan(broder.params.parse({ shingle: { unit: 'char', size: 16 } }), { minScore: Number.MIN_VALUE, seed: 1 });
  const tasks: string[] = [];
  const counters: Counters = {};
  const memo = new Map<string, Promise<unknown>>();
  const once = <T,>(key: string, compute: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, compute());
    return memo.get(key) as Promise<T>;
  };
  const k: KernelContext = {
    docs: smallCorpus(),
    parallelism: 2,
    memoryBudgetBytes: 2 ** 30,
    workDir: '/nonexistent',
    signal: new AbortController().signal,
    async runInWorker<T>(moduleUrl: string, exportName: string, payload: unknown): Promise<T> {
      tasks.push(exportName);
      return ((await import(moduleUrl)) as Record<string, (p: unknown) => T>)[exportName]!(payload);
    },
    threadsRunning: () => threadsUp,
    cached: once,
    stored: <T,>(codec: StoreCodec<T>, compute: () => Promise<T>) => once(codec.key, compute),
    storedIfAny: async () => undefined,
    count(group, name, amount = 1) {
      const g = (counters[group] ??= {});
      g[name] = (g[name] ?? 0) + amount;
    },
    progress() {},
  };
  const result = await plan.local!.run(k);
  return { rows: pairRows(result.pairs!), counters, tasks };
}

describe('where the Broder kernel joins', () => {
  it('on the calling thread when no thread is up and on the threads when they are, with the same pairs and counters', async () => {
    const here = await run(false);
    const there = await run(true);
    expect(here.tasks).not.toContain('scanCount');
    expect(there.tasks.filter((t) => t === 'scanCount').length).toBeGreaterThan(1);
    expect(here.rows.length).toBeGreaterThan(0);
    expect(here.rows).toEqual(there.rows);
    expect(here.counters).toEqual(there.counters);
  });

  it('inline below INLINE_JOIN_STEPS steps without threads, never once threads are up', () => {
    expect(joinsInline(INLINE_JOIN_STEPS - 1, false)).toBe(true);
    expect(joinsInline(INLINE_JOIN_STEPS, false)).toBe(false);
    expect(joinsInline(0, true)).toBe(false);
  });
});
