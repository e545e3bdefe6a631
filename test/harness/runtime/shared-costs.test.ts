/**
 * Standalone costs: what a variant would cost run alone, its own time plus that of the shared
 * values it reused. A fake clock advances only when a computation says it worked, so every
 * figure is known by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentSet, StoreCodec } from '../../../contract/index.ts';
import { makeKernelContext } from '../../../harness/runtime/kernel-context.ts';
import { wholeCost, type SharedCosts } from '../../../harness/runtime/shared-costs.ts';
import { ValueStore } from '../../../harness/runtime/stored-values.ts';
import { runHere } from '../../../harness/runtime/tasks.ts';

const root = mkdtempSync(join(tmpdir(), 'shared-costs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const d: DocumentSet = { ids: ['a', 'b'], texts: ['one', 'three'] };
const tasks = { parallelism: 1, run: runHere, worthThreads: () => false };
const codec: StoreCodec<Uint32Array> = {
  key: 'shared-costs-test:lengths',
  describe: 'text lengths',
  encode: (v) => ({ meta: {}, arrays: [v] }),
  decode: (f) => f.arrays[0] as Uint32Array,
};

/** Wall seconds and CPU-seconds that move only by `work(s)`: CPU at half the wall time. */
function fakeClock(): { clock: () => { wallS: number; cpuS: number }; work: (s: number) => void } {
  let t = 0;
  return { clock: () => ({ wallS: t, cpuS: t / 2 }), work: (s) => void (t += s) };
}

function scopes(o: { readonly store?: ValueStore } = {}) {
  const { clock, work } = fakeClock();
  const cache = new Map<string, Promise<unknown>>();
  const costs: SharedCosts = new Map();
  const variant = () => makeKernelContext({ docs: d, tasks, memoryBudgetBytes: 1, workDir: root, signal: new AbortController().signal, cache, costs, clock, ...(o.store ? { store: o.store } : {}) });
  return { variant, work, costs };
}

describe('standalone costs', () => {
  it('charges a variant for the shared values it reused, with what they were computed from', async () => {
    const { variant, work } = scopes();
    // The first variant computes the features (2 s of their own), which compute the normalized texts (1 s) inside.
    const first = variant();
    await first.ctx.cached('features', async () => {
      await first.ctx.cached('normalized', async () => work(1));
      work(2);
    });
    expect(first.shared.reused()).toEqual({ wallS: 0, cpuS: 0 });
    // A later variant reuses the features: alone it would have computed them and the texts, 3 s.
    const later = variant();
    await later.ctx.cached('features', async () => expect.fail('computed twice'));
    expect(later.shared.reused()).toEqual({ wallS: 3, cpuS: 1.5 });
  });

  it('charges a reuse inside a computation of the variant own, and each shared value once', async () => {
    const { variant, work } = scopes();
    const first = variant();
    await first.ctx.cached('normalized', async () => work(1));
    await first.ctx.cached('features', async () => {
      await first.ctx.cached('normalized', async () => expect.fail('computed twice'));
      work(2);
    });
    const later = variant();
    // Its own join (4 s, in its own time) reuses the features; it also asks for the texts again.
    await later.ctx.cached('join', async () => {
      await later.ctx.cached('features', async () => expect.fail('computed twice'));
      work(4);
    });
    await later.ctx.cached('normalized', async () => expect.fail('computed twice'));
    expect(later.shared.reused()).toEqual({ wallS: 3, cpuS: 1.5 });
  });

  it('gives a store the whole cost of a value, and charges it to a later run that replays it, less the replay', async () => {
    const store = new ValueStore({ dir: join(root, 'store'), maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    const run1 = scopes({ store });
    const computing = run1.variant();
    await computing.ctx.stored(codec, async () => {
      await computing.ctx.cached('normalized', async () => run1.work(1));
      run1.work(2);
      return Uint32Array.from(d.texts, (t) => t.length);
    });
    expect(wholeCost(run1.costs, `stored:${codec.key}`)).toEqual({ wallS: 3, cpuS: 1.5, deps: [] });
    await store.flush();
    // A later run replays the value in 0.5 s: alone, with nothing stored, it would compute it in 3.
    const reading = new ValueStore({ dir: join(root, 'store'), maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    const run2 = scopes({ store: reading });
    const replaying = run2.variant();
    const replay = codec.decode;
    const slowCodec: StoreCodec<Uint32Array> = {
      ...codec,
      decode: (f) => {
        run2.work(0.5);
        return replay(f);
      },
    };
    expect([...(await replaying.ctx.stored(slowCodec, async () => expect.fail('computed')))]).toEqual([3, 5]);
    expect(replaying.replayed).toEqual(['text lengths']);
    expect(replaying.shared.reused()).toEqual({ wallS: 2.5, cpuS: 1.25 });
  });

  it('says unknown for a replayed value whose entry recorded no cost', async () => {
    const dir = join(root, 'old');
    const old = new ValueStore({ dir, maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) });
    // Written without a cost, as entries of older versions are.
    await old.get(d, codec, async () => Uint32Array.from(d.texts, (t) => t.length));
    await old.flush();
    const { variant } = scopes({ store: new ValueStore({ dir, maxBytes: 2 ** 20, minChars: 0, notice: (l) => expect.fail(l) }) });
    const v = variant();
    await v.ctx.stored(codec, async () => expect.fail('computed'));
    expect(v.shared.reused()).toBe('unknown');
  });
});
