/**
 * Index orders: the entries of parallel key columns, stably ordered by those keys. The same LSD
 * passes as `sortRecords` (digit plan, skipped passes), but each pass moves an entry's index
 * and gathers its key through the order: twice as fast, on a million document pairs, as packing
 * keys and index into records and sorting those, since a pass then moves one word, not three.
 */
import { countsToStarts } from '../list-offsets.ts';
import { DEFAULT_DIGIT_BITS, digitPlan, digitsOf, zeroedCounts } from './digit-plan.ts';

export interface StableOrderOptions {
  /** the entries to order and their order among equal keys (default: 0..n-1, n the columns' length) */
  readonly order?: Uint32Array;
  /**
   * the widest digit of a pass, 1 to 24 bits (default 16): 24 sorts document indexes of up to
   * 16 million documents in one pass a column
   */
  readonly digitBits?: number;
}

/**
 * The entries ordered by `keys` (parallel columns, the most significant first), ties in the
 * order given: a new array.
 */
export function stableOrder(keys: readonly Uint32Array[], o: StableOrderOptions = {}): Uint32Array {
  const maxDigitBits = o.digitBits ?? DEFAULT_DIGIT_BITS;
  digitPlan(32, maxDigitBits);
  const n = o.order ? o.order.length : (keys[0]?.length ?? 0);
  let from = o.order ? o.order.slice() : new Uint32Array(n);
  if (!o.order) for (let i = 0; i < n; i++) from[i] = i;
  let to = new Uint32Array(n);
  let counts: Uint32Array | undefined;
  // Without a given order, every pass orders all the entries: counting needs no gather.
  const all = !o.order;
  for (let k = keys.length - 1; k >= 0; k--) {
    const key = keys[k] as Uint32Array;
    let bits = 0;
    if (all) for (let i = 0; i < n; i++) bits |= key[i] as number;
    else for (let i = 0; i < n; i++) bits |= key[from[i] as number] as number;
    for (const { shift, mask, buckets } of digitsOf(bits, maxDigitBits)) {
      counts = zeroedCounts(counts, buckets);
      if (all) countDigits(key, counts, n, shift, mask);
      else {
        for (let i = 0; i < n; i++) {
          const d = ((key[from[i] as number] as number) >>> shift) & mask;
          counts[d] = (counts[d] as number) + 1;
        }
      }
      // Every entry has the same digit: the pass would leave them as they are.
      if (counts[((key[from[0] as number] as number) >>> shift) & mask] === n) continue;
      countsToStarts(counts, buckets);
      for (let i = 0; i < n; i++) {
        const e = from[i] as number;
        const d = ((key[e] as number) >>> shift) & mask;
        const at = counts[d] as number;
        counts[d] = at + 1;
        to[at] = e;
      }
      [from, to] = [to, from];
    }
  }
  return from;
}

function countDigits(key: Uint32Array, counts: Uint32Array, n: number, shift: number, mask: number): void {
  for (let i = 0; i < n; i++) {
    const d = ((key[i] as number) >>> shift) & mask;
    counts[d] = (counts[d] as number) + 1;
  }
}
