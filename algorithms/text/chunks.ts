/** Helpers the kernel shares between its phases: shared typed arrays and balanced work ranges. */

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
