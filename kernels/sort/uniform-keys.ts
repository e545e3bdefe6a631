/**
 * `sortRecords` for keys that are uniform hashes (fingerprints), with owners: one counting pass
 * by the top 16 bits of the first word leaves buckets of a few records each, which an insertion
 * sort finishes (a bucket of more than 64 out of order, a comparison sort): a quarter of the LSD
 * radix sort's traffic. Past `UNIFORM_KEYS_LIMIT` records, a first pass by the top few bits cuts
 * the records into parts of at most about that many, each finished the same way by the next 16
 * bits: two passes, each writing to few places at a time, where the LSD sort makes four passes
 * over 64-bit keys that each scatter to 65,536 places across the whole array (slower per record
 * as the array grows: docs/performance.md, "Fingerprint batches").
 */
import { compareKeys } from './compare-keys.ts';
const BUCKETS = 65536;

/**
 * The most records one bucket pass takes: a part this size and its copy fit a core's cache, so
 * the pass writes to its buckets without misses.
 */
const PART_RECORDS = 1 << 16;

export interface UniformKeysShape {
  /** key words a record */
  readonly width: number;
  readonly count: number;
  /** the most records one bucket pass takes (default 65,536; tests make it small) */
  readonly passRecords?: number;
  /**
   * the records agree on this many top bits of the first word (default 0): the passes read the
   * bits after them (a part of records already cut by `scatterByTopBits`)
   */
  readonly agreeBits?: number;
  /** arrays of at least `count` records the sort may use instead of allocating its copy */
  readonly scratch?: { readonly keys: Uint32Array; readonly owners: Uint32Array };
}

/** Sorts `count` records of `width` key words and their owners stably, into new arrays or the given ones. */
export function sortUniformKeys(keys: Uint32Array, owners: Uint32Array, o: UniformKeysShape): { records: Uint32Array; owners: Uint32Array } {
  const { width, count } = o;
  const agree = o.agreeBits ?? 0;
  const limit = o.passRecords ?? PART_RECORDS;
  const k2 = o.scratch ? o.scratch.keys : new Uint32Array(count * width);
  const o2 = o.scratch ? o.scratch.owners : new Uint32Array(count);
  const counts = new Uint32Array(BUCKETS + 1);
  if (count <= limit || agree >= 32) {
    bucketPass({ from: keys, fromOwners: owners, to: k2, toOwners: o2, width, first: 0, end: count, skip: agree, counts });
    return { records: k2, owners: o2 };
  }
  const bits = Math.min(16, 32 - agree, Math.ceil(Math.log2(count / limit)));
  const start = scatterByTopBits(keys, owners, { width, count, skip: agree, bits, to: k2, toOwners: o2 });
  for (let q = 0; q < 1 << bits; q++) {
    bucketPass({ from: k2, fromOwners: o2, to: keys, toOwners: owners, width, first: start[q] as number, end: start[q + 1] as number, skip: agree + bits, counts });
  }
  return { records: keys, owners };
}

export interface TopBitsScatter {
  readonly width: number;
  readonly count: number;
  /** the bits of the first word read are those after its top `skip` */
  readonly skip: number;
  readonly bits: number;
  /** where the records go: at least `count` records */
  readonly to: Uint32Array;
  readonly toOwners: Uint32Array;
}

/**
 * Moves the records and their owners stably into `to` by `bits` bits of the first word (after
 * its top `skip`), and returns where each of the 2^bits parts starts (2^bits + 1 offsets): the
 * first pass of the sort, which a caller may also keep apart to cut records into parts.
 */
export function scatterByTopBits(keys: Uint32Array, owners: Uint32Array, o: TopBitsScatter): Uint32Array {
  const { width, count, skip, bits, to, toOwners } = o;
  const parts = 2 ** bits;
  const start = new Uint32Array(parts + 1);
  if (bits === 0) {
    to.set(keys.subarray(0, count * width));
    toOwners.set(owners.subarray(0, count));
    start[1] = count;
    return start;
  }
  const shift = 32 - bits;
  for (let i = 0; i < count; i++) start[((((keys[i * width] as number) << skip) >>> shift) + 1)]!++;
  for (let d = 1; d <= parts; d++) start[d]! += start[d - 1]!;
  const fill = start.slice(0, parts);
  for (let i = 0; i < count; i++) {
    const t = fill[((keys[i * width] as number) << skip) >>> shift]!++;
    for (let w = 0; w < width; w++) to[t * width + w] = keys[i * width + w] as number;
    toOwners[t] = owners[i] as number;
  }
  return start;
}

interface BucketPass {
  readonly from: Uint32Array;
  readonly fromOwners: Uint32Array;
  readonly to: Uint32Array;
  readonly toOwners: Uint32Array;
  readonly width: number;
  /** the records [first, end), which agree on the first word's top `skip` bits, stay in that range */
  readonly first: number;
  readonly end: number;
  readonly skip: number;
  /** scratch: at least BUCKETS + 1 counters */
  readonly counts: Uint32Array;
}

/**
 * Records [first, end) moved stably from `from` to `to` by the next bits after the top `skip`
 * (as many as make buckets of about four records, at most 16), then each bucket sorted.
 */
function bucketPass(p: BucketPass): void {
  const { from, fromOwners, to, toOwners, width, first, end, skip } = p;
  const bits = Math.max(1, Math.min(16, 32 - skip, Math.ceil(Math.log2(Math.max(2, (end - first) / 4)))));
  const shift = 32 - bits;
  const buckets = 1 << bits;
  const counts = p.counts.subarray(0, buckets + 1).fill(0);
  for (let i = first; i < end; i++) counts[((((from[i * width] as number) << skip) >>> shift) + 1)]!++;
  counts[0] = first;
  for (let d = 1; d <= buckets; d++) counts[d]! += counts[d - 1]!;
  const fill = counts.slice(0, buckets);
  if (width === 2) {
    for (let i = first; i < end; i++) {
      const hi = from[2 * i] as number;
      const t = fill[(hi << skip) >>> shift]!++;
      to[2 * t] = hi;
      to[2 * t + 1] = from[2 * i + 1] as number;
      toOwners[t] = fromOwners[i] as number;
    }
  } else {
    for (let i = first; i < end; i++) {
      const t = fill[((from[i * width] as number) << skip) >>> shift]!++;
      for (let w = 0; w < width; w++) to[t * width + w] = from[i * width + w] as number;
      toOwners[t] = fromOwners[i] as number;
    }
  }
  for (let d = 0; d < buckets; d++) {
    const a = counts[d] as number;
    const b = counts[d + 1] as number;
    if (b - a <= 1) continue;
    if (width !== 2 || (b - a > 64 && !inOrder(to, a, b))) sortBucket(to, toOwners, width, a, b);
    else insertionSortPairKeys(to, toOwners, a, b);
  }
}

function inOrder(keys: Uint32Array, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const p = keys[2 * i - 2] as number;
    const q = keys[2 * i] as number;
    if (p > q || (p === q && (keys[2 * i - 1] as number) > (keys[2 * i + 1] as number))) return false;
  }
  return true;
}

/** Stable: an entry moves only past greater keys. */
function insertionSortPairKeys(keys: Uint32Array, owners: Uint32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const hi = keys[2 * i] as number;
    const lo = keys[2 * i + 1] as number;
    const ph = keys[2 * i - 2] as number;
    if (ph < hi || (ph === hi && (keys[2 * i - 1] as number) <= lo)) continue;
    const owner = owners[i] as number;
    let j = i;
    while (j > from) {
      const qh = keys[2 * j - 2] as number;
      const ql = keys[2 * j - 1] as number;
      if (qh < hi || (qh === hi && ql <= lo)) break;
      keys[2 * j] = qh;
      keys[2 * j + 1] = ql;
      owners[j] = owners[j - 1] as number;
      j--;
    }
    keys[2 * j] = hi;
    keys[2 * j + 1] = lo;
    owners[j] = owner;
  }
}

/** A stable sort of entries [from, to) by key: insertion for the few entries a bucket holds, a comparison sort past that. */
function sortBucket(keys: Uint32Array, owners: Uint32Array, width: number, from: number, to: number): void {
  if (to - from > 64) {
    const order = Array.from({ length: to - from }, (_, i) => from + i).sort((i, j) => compareKeys(keys, i, keys, j, width) || i - j);
    const k = keys.slice(from * width, to * width);
    const o = owners.slice(from, to);
    order.forEach((src, i) => {
      for (let w = 0; w < width; w++) keys[(from + i) * width + w] = k[(src - from) * width + w] as number;
      owners[from + i] = o[src - from] as number;
    });
    return;
  }
  const key = new Uint32Array(width);
  for (let i = from + 1; i < to; i++) {
    if (compareKeys(keys, i - 1, keys, i, width) <= 0) continue;
    for (let w = 0; w < width; w++) key[w] = keys[i * width + w] as number;
    const owner = owners[i] as number;
    let j = i;
    while (j > from && compareKeys(keys, j - 1, key, 0, width) > 0) {
      for (let w = 0; w < width; w++) keys[j * width + w] = keys[(j - 1) * width + w] as number;
      owners[j] = owners[j - 1] as number;
      j--;
    }
    for (let w = 0; w < width; w++) keys[j * width + w] = key[w] as number;
    owners[j] = owner;
  }
}
