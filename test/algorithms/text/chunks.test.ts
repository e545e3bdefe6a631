import { describe, expect, it } from 'vitest';
import { settleLimited } from '../../../algorithms/text/chunks.ts';

/** A task that resolves (or rejects) when the test says, recording how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const waiting = new Map<number, { ok: () => void; fail: (e: Error) => void }>();
  const task = (item: number): Promise<number> => {
    running++;
    most = Math.max(most, running);
    started.push(item);
    return new Promise<number>((resolve, reject) => {
      waiting.set(item, {
        ok: () => {
          running--;
          resolve(item * 10);
        },
        fail: (e) => {
          running--;
          reject(e);
        },
      });
    });
  };
  const turn = () => new Promise((r) => setImmediate(r));
  return { task, started, waiting, turn, most: () => most };
}

describe('settleLimited', () => {
  it('runs at most `limit` tasks at once, starting each as one ends, with results in order', async () => {
    const g = gate();
    const all = settleLimited([1, 2, 3, 4, 5], 2, g.task);
    await g.turn();
    expect(g.started).toEqual([1, 2]);
    g.waiting.get(2)?.ok();
    await g.turn();
    expect(g.started).toEqual([1, 2, 3]);
    for (const i of [1, 3, 4, 5]) {
      await g.turn();
      g.waiting.get(i)?.ok();
    }
    expect(await all).toEqual([10, 20, 30, 40, 50]);
    expect(g.most()).toBe(2);
  });

  it('starts nothing after a failure and throws it once the tasks running have settled', async () => {
    const g = gate();
    let settled = false;
    const all = settleLimited([1, 2, 3, 4], 2, g.task).finally(() => (settled = true));
    await g.turn();
    g.waiting.get(1)?.fail(new Error('task 1'));
    await g.turn();
    expect(settled).toBe(false);
    g.waiting.get(2)?.ok();
    await expect(all).rejects.toThrow('task 1');
    expect(g.started).toEqual([1, 2]);
  });

  it('gives an empty list for no items', async () => {
    expect(await settleLimited([], 3, () => Promise.resolve(1))).toEqual([]);
  });
});
