/**
 * The Broder kernel joins on the calling thread or on the threads as the runtime weighs the
 * join's size (KernelContext.worthThreads): the same pairs and counters either way.
 */
import { describe, expect, it } from 'vitest';
import { findAdapter } from '../../../algorithms/registry.ts';
import type { Counters, WorkerTask } from '../../../contract/index.ts';
import { makeKernelContext } from '../../../harness/runtime/kernel-context.ts';
import { runHere } from '../../../harness/runtime/tasks.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { pairRows } from '../../support/kernel-and-jobs.ts';

/** The kernel with worker tasks run here, payloads copied as a thread's would be, and threads worth it or not. */
async function run(threadsWorthIt: boolean): Promise<{ rows: string[]; counters: Counters }> {
  const broder = (await findAdapter('broder'))!;
  const plan = broder.plan(broder.params.parse({ shingle: { unit: 'char', size: 16 } }), { minScore: Number.MIN_VALUE, seed: 1 });
  const kernel = makeKernelContext({
    docs: smallCorpus(),
    tasks: { parallelism: 2, run: <P, R>(task: WorkerTask<P, R>, payload: P) => runHere(task, payload, true), worthThreads: () => threadsWorthIt },
    memoryBudgetBytes: 2 ** 30,
    workDir: '/nonexistent',
    signal: new AbortController().signal,
    cache: new Map(),
  });
  const result = await plan.local!.run(kernel.ctx);
  return { rows: pairRows(result.pairs), counters: kernel.counters };
}

describe('where the Broder kernel joins', () => {
  it('gives the same pairs and counters on the calling thread as on the threads', async () => {
    const here = await run(false);
    const there = await run(true);
    expect(here.rows.length).toBeGreaterThan(0);
    expect(here.rows).toEqual(there.rows);
    expect(here.counters).toEqual(there.counters);
  });
});
