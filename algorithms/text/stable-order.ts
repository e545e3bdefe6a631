/**
 * Stable sorts of entry indexes by integer keys, linear in the entries: what the kernels use
 * where a comparison sort of millions of entries (fingerprints, pairs) would dominate.
 */

/**
 * A stable LSD radix sort of entry indexes `order` by the given 32-bit keys, the first key least
 * significant, 16 bits a pass; passes where every entry has the same digit are skipped.
 */
export function radixOrder(keys: readonly Uint32Array[], order: Uint32Array): Uint32Array {
  const n = order.length;
  let from: Uint32Array = order;
  let to: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(65536);
  for (const key of keys) {
    for (let shift = 0; shift < 32; shift += 16) {
      count.fill(0);
      for (let i = 0; i < n; i++) {
        const d = ((key[from[i] as number] as number) >>> shift) & 0xffff;
        count[d] = (count[d] as number) + 1;
      }
      if (n === 0 || count[((key[from[0] as number] as number) >>> shift) & 0xffff] === n) continue;
      let sum = 0;
      for (let d = 0; d < 65536; d++) {
        const c = count[d] as number;
        count[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const e = from[i] as number;
        const d = ((key[e] as number) >>> shift) & 0xffff;
        const at = count[d] as number;
        count[d] = at + 1;
        to[at] = e;
      }
      [from, to] = [to, from];
    }
  }
  return from;
}

/**
 * The indexes `within` (default 0..n-1) stably ordered by `keys[i]`, integers in [0, buckets):
 * a counting sort, linear where a comparison sort of a million entries is not.
 */
export function countingOrder(keys: Uint32Array, buckets: number, within?: Uint32Array): Uint32Array {
  const n = keys.length;
  let from = within;
  if (!from) {
    from = new Uint32Array(n);
    for (let i = 0; i < n; i++) from[i] = i;
  }
  const next = new Uint32Array(buckets + 1);
  for (let i = 0; i < n; i++) next[(keys[i] as number) + 1] = (next[(keys[i] as number) + 1] as number) + 1;
  for (let k = 0; k < buckets; k++) next[k + 1] = (next[k + 1] as number) + (next[k] as number);
  const out = new Uint32Array(n);
  for (let j = 0; j < n; j++) {
    const i = from[j] as number;
    const k = keys[i] as number;
    const to = next[k] as number;
    out[to] = i;
    next[k] = to + 1;
  }
  return out;
}

/**
 * The entries 0..n-1 of the pairs (a[i], b[i]) of document indexes below `documents` in (a, b)
 * order, ties in entry order: a stable counting sort by b, then one by a (about three times as
 * fast as `radixOrder` on a million pairs, whose 16-bit digits make more and wider passes).
 */
export function pairOrder(a: Uint32Array, b: Uint32Array, documents: number): Uint32Array {
  return countingOrder(a, documents, countingOrder(b, documents));
}
