/**
 * Hadoop's default partitioner, bit for bit, so that every backend sends a key to the same
 * reducer EMR would.
 *
 * Hadoop Streaming hands the framework each map output line's key (the bytes before the first
 * TAB, i.e. the *encoded* key of `records.ts`) as a `Text`. `HashPartitioner` computes
 * `(key.hashCode() & Integer.MAX_VALUE) % numReduceTasks`, and `Text.hashCode()` is
 * `WritableComparator.hashBytes(bytes, length)`: `hash = 1; hash = 31 * hash + b` over the
 * bytes as *signed* Java bytes, in 32-bit int arithmetic.
 */

const encoder = new TextEncoder();

/** `WritableComparator.hashBytes` over `bytes[start, end)`: a signed 32-bit int. */
export function hadoopHashBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let hash = 1;
  for (let i = start; i < end; i++) {
    // (b << 24) >> 24 reinterprets the unsigned byte as a signed Java byte.
    hash = (Math.imul(31, hash) + (((bytes[i] as number) << 24) >> 24)) | 0;
  }
  return hash;
}

/** `HashPartitioner.getPartition` for a key hash. */
export function partitionOfHash(hash: number, numReduceTasks: number): number {
  return (hash & 0x7fffffff) % numReduceTasks;
}

/** The reducer (0-based) that Hadoop sends `encodedKey` to; the key is taken as its UTF-8 bytes. */
export function hadoopPartition(encodedKey: string, numReduceTasks: number): number {
  if (!Number.isInteger(numReduceTasks) || numReduceTasks < 1) {
    throw new RangeError(`numReduceTasks must be a positive integer, got ${numReduceTasks}`);
  }
  return partitionOfHash(hadoopHashBytes(encoder.encode(encodedKey)), numReduceTasks);
}
