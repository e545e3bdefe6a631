/** Helpers the kernel shares between its phases: shared typed arrays, balanced work ranges, awaiting tasks. */

/** A Uint32Array on a SharedArrayBuffer: worker threads read it without a copy. */
export function sharedU32(length: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(Math.max(1, length) * 4));
}

/** A Uint8Array on a SharedArrayBuffer (an unshared one would be moved to the first worker it is sent to). */
export function sharedU8(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(Math.max(1, length)));
}

/**
 * Cuts [0, n) into at most `chunks` contiguous ranges of about equal total weight (each item
 * weighs `weight(i) + 1`), so that worker threads given one range each finish together.
 */
export function balancedRanges(n: number, weight: (i: number) => number, chunks: number): [number, number][] {
  let total = 0;
  for (let i = 0; i < n; i++) total += weight(i) + 1;
  const target = total / Math.max(1, chunks);
  const ranges: [number, number][] = [];
  let from = 0;
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += weight(i) + 1;
    if (acc >= target && ranges.length < chunks - 1) {
      ranges.push([from, i + 1]);
      from = i + 1;
      acc = 0;
    }
  }
  if (from < n || ranges.length === 0) ranges.push([from, n]);
  return ranges;
}

/** A Uint32Array that grows as values are appended (a typed `number[]`). */
export class U32Builder {
  private data: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }

  push(x: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = x;
  }

  append(xs: Uint32Array): void {
    if (this.length + xs.length > this.data.length) this.grow(this.length + xs.length);
    this.data.set(xs, this.length);
    this.length += xs.length;
  }

  /** A copy of the values, exactly `length` long. */
  result(): Uint32Array {
    return this.data.slice(0, this.length);
  }

  private grow(need: number): void {
    const next = new Uint32Array(Math.max(need, 2 * this.data.length));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

/**
 * `task(item, i)` for every item, at most `limit` at a time, each started only when one ends: a
 * task's payload (a slice of texts a file holds, read back) then exists only while it is in
 * flight, not for every item at once. Results in the items' order; like `settleAll`, every
 * started task settles before the first failure is thrown, and none starts after it.
 */
export async function settleLimited<I, T>(items: readonly I[], limit: number, task: (item: I, index: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(items.length);
  let next = 0;
  let failure: { reason: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        out[i] = await task(items[i] as I, i);
      } catch (e) {
        failure ??= { reason: e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.reason;
  return out;
}

/**
 * Awaits every task, then throws the first failure: no worker thread is left writing into what
 * the caller frees or removes on that failure.
 */
export async function settleAll<T>(tasks: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}
