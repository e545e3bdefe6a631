import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryable, withBackoff } from '../../../../harness/mapreduce/emr/retry.ts';

const err = (name: string, status?: number): Error =>
  Object.assign(new Error(name), { name, ...(status ? { $metadata: { httpStatusCode: status } } : {}) });

describe('isRetryable', () => {
  it('retries throttling, 429 and 5xx', () => {
    expect(isRetryable(err('ThrottlingException', 400))).toBe(true);
    expect(isRetryable(err('SlowDown', 503))).toBe(true);
    expect(isRetryable(err('Whatever', 429))).toBe(true);
    expect(isRetryable(err('InternalServerError', 500))).toBe(true);
  });
  it('does not retry client errors', () => {
    expect(isRetryable(err('InvalidRequestException', 400))).toBe(false);
    expect(isRetryable(err('NotFound', 404))).toBe(false);
    expect(isRetryable('x')).toBe(false);
  });
});

describe('withBackoff', () => {
  const b = { baseMs: 1000, capMs: 5000, attempts: 5 };
  it('doubles the wait up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((k) => backoffDelay(b, k))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
  it('retries throttling and returns the eventual result', async () => {
    const waits: number[] = [];
    let calls = 0;
    const r = await withBackoff(
      async () => {
        if (++calls <= 3) throw err('ThrottlingException', 400);
        return 'ok';
      },
      { backoff: b, sleep: async (ms) => void waits.push(ms) },
    );
    expect(r).toBe('ok');
    expect(waits).toEqual([1000, 2000, 4000]);
  });
  it('gives up after the last attempt with the last error', async () => {
    let calls = 0;
    const p = withBackoff(async () => {
      calls++;
      throw err('ThrottlingException', 400);
    }, { backoff: b, sleep: async () => {} });
    await expect(p).rejects.toThrow('ThrottlingException');
    expect(calls).toBe(5);
  });
  it('throws a non-retryable error at once', async () => {
    let calls = 0;
    const p = withBackoff(async () => {
      calls++;
      throw err('ValidationException', 400);
    }, { backoff: b, sleep: async () => {} });
    await expect(p).rejects.toThrow('ValidationException');
    expect(calls).toBe(1);
  });
});
