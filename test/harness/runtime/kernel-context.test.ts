/**
 * Standalone costs (kernel-context.ts `shared`, runtime/shared-costs.ts), measured by the process's own clock: a variant that reuses a value an earlier
 * variant of the run computed borrows what computing it cost, once, and a variant that computes
 * a value itself borrows nothing for it.
 */
import { describe, expect, it } from 'vitest';
import { makeKernelContext } from '../../../harness/runtime/kernel-context.ts';
import type { SharedCost, SharedCosts } from '../../../harness/runtime/shared-costs.ts';
import { docSet } from '../../support/corpus.ts';

const tasks = { parallelism: 1, run: () => Promise.reject(new Error('no threads')), worthThreads: () => false };

/** Spins until this process has used `ms` more milliseconds of CPU (on a loaded machine, wall time says nothing of CPU). */
function spin(ms: number): number {
  const start = process.cpuUsage();
  let x = 0;
  while (process.cpuUsage(start).user < ms * 1000) x++;
  return x;
}

describe('a variant\'s borrowed cost', () => {
  it('is what the shared values it reused cost the variant that computed them', async () => {
    const docs = docSet(['a', 'b']);
    const cache = new Map<string, Promise<unknown>>();
    const costs: SharedCosts = new Map();
    const scope = (): ReturnType<typeof makeKernelContext> =>
      makeKernelContext({ docs, tasks, memoryBudgetBytes: 1, workDir: '/nonexistent', signal: new AbortController().signal, cache, costs });

    const first = scope();
    await first.ctx.cached('features', async () => spin(60));
    await first.ctx.cached('features', async () => spin(60)); // its own value again: nothing borrowed
    expect(first.shared.reused()).toEqual({ wallS: 0, cpuS: 0 });
    expect(first.shared.reusedValues()).toEqual([]);
    const cost = costs.get('features') as SharedCost;
    expect(cost.cpuS).toBeGreaterThanOrEqual(0.06);
    expect(cost.wallS).toBeGreaterThanOrEqual(0.05);

    const second = scope();
    await second.ctx.cached('features', async () => spin(60));
    await second.ctx.cached('features', async () => spin(60)); // reused twice, borrowed once
    await second.ctx.cached('other', async () => 1);
    expect(second.shared.reused()).toEqual({ wallS: cost.wallS, cpuS: cost.cpuS });
    expect(second.shared.reusedValues()).toEqual(['features']);
  });

  it('leaves a failed computation out, for the variant that computes it again', async () => {
    const docs = docSet(['a']);
    const cache = new Map<string, Promise<unknown>>();
    const costs: SharedCosts = new Map();
    const mk = (): ReturnType<typeof makeKernelContext> => makeKernelContext({ docs, tasks, memoryBudgetBytes: 1, workDir: '/nonexistent', signal: new AbortController().signal, cache, costs });
    await expect(mk().ctx.cached('x', () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(costs.has('x')).toBe(false);
    const again = mk();
    await again.ctx.cached('x', async () => 2);
    expect(again.shared.reusedValues()).toEqual([]);
  });
});
