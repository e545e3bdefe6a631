import { describe, expect, it } from 'vitest';
import { THREAD_START_STEPS, worthThreads } from '../../../harness/runtime/thread-policy.ts';
import { createRuntime } from '../../../harness/runtime/runtime.ts';

describe('when work goes to worker threads', () => {
  it('below THREAD_START_STEPS steps only once threads are up, from it always', () => {
    expect(worthThreads(THREAD_START_STEPS - 1, false)).toBe(false);
    expect(worthThreads(THREAD_START_STEPS, false)).toBe(true);
    expect(worthThreads(0, true)).toBe(true);
  });

  it('a runtime whose threads start on demand finds small work not worth them, and lends none for side work', async () => {
    const runtime = createRuntime({ workers: 2, start: 'on-demand' });
    try {
      expect(runtime.worthThreads(1000)).toBe(false);
      expect(runtime.threadsIfUp()).toBeUndefined();
    } finally {
      await runtime.close('finished');
    }
  });

  it('a runtime whose threads start now finds any work worth them', async () => {
    const runtime = createRuntime({ workers: 2, start: 'now' });
    try {
      expect(runtime.worthThreads(1)).toBe(true);
      expect(runtime.threadsIfUp()).toBeDefined();
    } finally {
      await runtime.close('finished');
    }
  });

  it('a runtime of one worker runs everything on the calling thread, so lends no threads', async () => {
    const runtime = createRuntime({ workers: 1, start: 'now' });
    try {
      expect(runtime.threadsIfUp()).toBeUndefined();
    } finally {
      await runtime.close('finished');
    }
  });
});
