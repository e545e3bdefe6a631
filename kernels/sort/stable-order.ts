/**
 * Index orders: the entries of parallel key columns, stably ordered by those keys. The keys
 * and the entry's index are packed into records and sorted by `sortRecords`, so that each pass
 * reads its records sequentially instead of gathering keys through the order it is building.
 */
import { sortRecords } from './records.ts';

export interface StableOrderOptions {
  /** the entries to order and their order among equal keys (default: 0..n-1, n the columns' length) */
  readonly order?: Uint32Array;
  /** the widest digit of a pass, 1 to 24 bits (default 16) */
  readonly digitBits?: number;
}

/**
 * The entries ordered by `keys` (parallel columns, the most significant first), ties in the
 * order given: a new array.
 */
export function stableOrder(keys: readonly Uint32Array[], o: StableOrderOptions = {}): Uint32Array {
  const width = keys.length;
  const n = o.order ? o.order.length : (keys[0]?.length ?? 0);
  const owners = o.order ? o.order.slice() : new Uint32Array(n);
  if (!o.order) for (let i = 0; i < n; i++) owners[i] = i;
  if (width === 0) return owners;
  const records = new Uint32Array(n * width);
  for (let w = 0; w < width; w++) {
    const key = keys[w] as Uint32Array;
    for (let i = 0; i < n; i++) records[i * width + w] = key[owners[i] as number] as number;
  }
  return sortRecords(records, { width, keyWords: width, owners, ...(o.digitBits === undefined ? {} : { digitBits: o.digitBits }) }).owners;
}
