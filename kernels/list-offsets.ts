/**
 * Offsets of lists laid end to end (a CSR's starts): the prefix sum every counting sort and
 * postings builder needs between counting and filling.
 */

/**
 * Turns `counts[0 .. length)` into starts in place: each becomes the sum of those before it.
 * Returns the total.
 */
export function countsToStarts(counts: Uint32Array | Float64Array, length = counts.length): number {
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const c = counts[i] as number;
    counts[i] = sum;
    sum += c;
  }
  return sum;
}

export interface ListOffsetsOptions<T extends Uint32Array | Float64Array> {
  /**
   * `sizes.length + 1` zeros to write the offsets into: a Float64Array where the total may pass
   * 2^32, a Uint32Array on a SharedArrayBuffer for worker threads. Default: a new Uint32Array.
   */
  readonly into?: T;
}

/** The offsets of lists of the given sizes, from 0 to their total: `sizes.length + 1` entries. */
export function listOffsets<T extends Uint32Array | Float64Array = Uint32Array>(sizes: ArrayLike<number>, o: ListOffsetsOptions<T> = {}): T {
  const n = sizes.length;
  const out = (o.into ?? new Uint32Array(n + 1)) as T;
  let sum = 0;
  out[0] = 0;
  for (let i = 0; i < n; i++) {
    sum += sizes[i] as number;
    out[i + 1] = sum;
  }
  return out;
}
