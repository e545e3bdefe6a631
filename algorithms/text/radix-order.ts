/**
 * Stable sorts of entry indexes by 32-bit integer keys, linear in the entries: what the kernels
 * use where a comparison sort of millions of entries (fingerprints, pairs) would dominate.
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

/** The entries 0..n-1 of the pairs (a[i], b[i]) in (a, b) order, ties in entry order. */
export function pairOrder(a: Uint32Array, b: Uint32Array): Uint32Array {
  return radixOrder([b, a], Uint32Array.from({ length: a.length }, (_, i) => i));
}
