/**
 * Retries an AWS call on throttling and server errors with exponential backoff. Polling
 * DescribeCluster is known to hit `ThrottlingException: Rate exceeded` (mrjob#1091,
 * botocore#1199). The SDK's own retries (3 attempts) come first; this layer waits longer.
 */
export interface Backoff {
  readonly baseMs: number;
  readonly capMs: number;
  /** Total attempts, the first included. */
  readonly attempts: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, capMs: 60_000, attempts: 8 };

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const THROTTLING = new Set([
  'ThrottlingException', 'Throttling', 'ThrottledException', 'TooManyRequestsException',
  'RequestLimitExceeded', 'RequestThrottled', 'RequestThrottledException', 'SlowDown',
]);

export function isRetryable(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const name = (e as { name?: unknown }).name;
  if (typeof name === 'string' && THROTTLING.has(name)) return true;
  const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 429 || (typeof status === 'number' && status >= 500);
}

/** The wait before retry number `k` (k = 0 for the first retry). */
export function backoffDelay(b: Backoff, k: number): number {
  return Math.min(b.capMs, b.baseMs * 2 ** k);
}

export async function withBackoff<T>(
  fn: () => Promise<T>,
  opts: { backoff: Backoff; sleep: Sleep; signal?: AbortSignal; onRetry?: (e: unknown, delayMs: number) => void },
): Promise<T> {
  for (let k = 0; ; k++) {
    try {
      return await fn();
    } catch (e) {
      if (!isRetryable(e) || k + 1 >= opts.backoff.attempts) throw e;
      const delay = backoffDelay(opts.backoff, k);
      opts.onRetry?.(e, delay);
      await opts.sleep(delay, opts.signal);
    }
  }
}
