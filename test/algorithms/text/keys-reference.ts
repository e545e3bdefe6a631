/** Keys to number and what numbering them must give, for the tests of key-table.ts and fingerprint-numbering.ts. */

/** The reference: ids in first-seen order from a Map over the keys written out. */
export function referenceIds(data: Uint32Array, width: number): { ids: number[]; keys: number[] } {
  const seen = new Map<string, number>();
  const ids: number[] = [];
  const keys: number[] = [];
  for (let at = 0; at < data.length; at += width) {
    const words = [...data.subarray(at, at + width)];
    const k = words.join(',');
    let id = seen.get(k);
    if (id === undefined) {
      seen.set(k, (id = seen.size));
      keys.push(...words);
    }
    ids.push(id);
  }
  return { ids, keys };
}

/** A small deterministic generator (xorshift32), so the keys repeat and share low bits. */
export function keys(n: number, width: number, distinct: number, seed: number): Uint32Array {
  let x = seed;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const pool = Array.from({ length: distinct }, (_, i) =>
    // low words alike (multiples of 2^20), so the table cannot rely on them alone
    Array.from({ length: width }, (_, k) => (k === width - 1 ? (i << 20) >>> 0 : next())),
  );
  const out = new Uint32Array(n * width);
  for (let i = 0; i < n; i++) out.set(pool[next() % distinct] as number[], i * width);
  return out;
}
