import { describe, expect, it } from 'vitest';
import { IdleLane } from '../../../harness/experiment/idle-lane.ts';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await turn();
};

describe('IdleLane', () => {
  it('runs a step’s pieces only once every step begun before it has ended', async () => {
    const lane = new IdleLane();
    const seen: string[] = [];
    const first = lane.begin();
    const second = lane.begin();
    // The second step's piece is given first, yet waits for the first step's end.
    const late = second.run(() => seen.push('second: 1'));
    await first.run(() => seen.push('first: 1'));
    await turns(3);
    await first.run(() => seen.push('first: 2'));
    await turns(3);
    expect(seen).toEqual(['first: 1', 'first: 2']);
    first.end();
    await late;
    expect(seen).toEqual(['first: 1', 'first: 2', 'second: 1']);
  });

  it('starts no piece while held, and a hold waits for the running piece to end', async () => {
    const lane = new IdleLane();
    const step = lane.begin();
    const seen: string[] = [];
    let finishRunning!: () => void;
    const running = step.run(async () => {
      seen.push('piece 1 starts');
      await new Promise<void>((r) => (finishRunning = r));
      seen.push('piece 1 ends');
    });
    await turns(2);
    let held = false;
    const hold = lane.hold().then(() => {
      held = true;
      seen.push('held');
    });
    await turns(2);
    expect(held).toBe(false);
    finishRunning();
    await running;
    await hold;
    const next = step.run(() => seen.push('piece 2'));
    await turns(5);
    expect(seen).toEqual(['piece 1 starts', 'piece 1 ends', 'held']);
    lane.release();
    await next;
    expect(seen).toEqual(['piece 1 starts', 'piece 1 ends', 'held', 'piece 2']);
  });

  it('lets pieces start only when every hold is released', async () => {
    const lane = new IdleLane();
    await lane.hold();
    await lane.hold();
    let ran = false;
    const piece = lane.begin().run(() => (ran = true));
    lane.release();
    await turns(3);
    expect(ran).toBe(false);
    lane.release();
    await piece;
    expect(ran).toBe(true);
    expect(() => lane.release()).toThrow('IdleLane.release without hold');
  });

  it('starts no piece once its signal is aborted: the piece rejects with the reason', async () => {
    const c = new AbortController();
    const lane = new IdleLane(c.signal);
    await lane.hold();
    let ran = false;
    const piece = lane.begin().run(() => (ran = true));
    c.abort(new Error('interrupted'));
    lane.release();
    await expect(piece).rejects.toThrow('interrupted');
    expect(ran).toBe(false);
  });

  it('passes a piece’s failure to its caller, and the step’s later pieces still run', async () => {
    const lane = new IdleLane();
    const step = lane.begin();
    await expect(step.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await step.run(() => 42)).toBe(42);
  });
});
