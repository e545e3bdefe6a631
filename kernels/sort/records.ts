/**
 * The stable sort of the project's typed arrays: fixed-width records of 32-bit words, ordered
 * by their first `keyWords` words (most significant first), each optionally carrying an owner
 * (a document, an entry index) in an array of its own. Pair lists are records too
 * (`pair-list.ts`); index orders make the same passes over keys they gather (`stable-order.ts`).
 *
 * An LSD radix sort, linear in the records: a key word is cut into digits of at most
 * `digitBits` bits, as few and as narrow as its significant bits need (`digit-plan.ts`), and a
 * pass in which every record has the same digit is skipped. Records move whole, so every pass
 * reads its input sequentially (gathering several words through a permutation is slower: cache
 * misses); owners move in an array of their own. A few records sort by comparison, where a
 * pass's counters would cost more than they; uniform hashes with owners sort by buckets
 * (`uniform-keys.ts`).
 */
import { countsToStarts } from '../list-offsets.ts';
import { DEFAULT_DIGIT_BITS, digitPlan, digitsOf, zeroedCounts } from './digit-plan.ts';
import { sortUniformKeys } from './uniform-keys.ts';

export interface RecordSortOptions {
  /** words a record */
  readonly width: number;
  /** the key: the record's first `keyWords` words, most significant first */
  readonly keyWords: number;
  /** records to sort, from the first (default: all of `records`) */
  readonly count?: number;
  /** one word a record, moved with it */
  readonly owners?: Uint32Array;
  /** the widest digit of a pass, 1 to 24 bits (default 16) */
  readonly digitBits?: number;
  /**
   * What the keys are: `'uniform'` hashes (fingerprints) spread evenly over their first word,
   * which one pass by its top 16 bits leaves in buckets of a few records that an insertion
   * sort finishes: a quarter of the LSD sort's traffic. Default `'any'`.
   */
  readonly keys?: 'any' | 'uniform';
}

export interface SortedRecords {
  /** the sorted records: `records` itself or a new array */
  readonly records: Uint32Array;
  /** their owners, likewise */
  readonly owners: Uint32Array | undefined;
}

/**
 * Sorts `count` records stably by key: records of equal keys keep their order. Returns the
 * sorted records and owners, in the given arrays or in new ones (the given ones may be
 * overwritten either way).
 */
export function sortRecords(records: Uint32Array, o: RecordSortOptions & { readonly owners: Uint32Array }): SortedRecords & { readonly owners: Uint32Array };
export function sortRecords(records: Uint32Array, o: RecordSortOptions): SortedRecords;
export function sortRecords(records: Uint32Array, o: RecordSortOptions): SortedRecords {
  const { width, keyWords } = o;
  const count = o.count ?? records.length / width;
  if (!Number.isInteger(width) || width < 1 || !Number.isInteger(keyWords) || keyWords < 0 || keyWords > width) {
    throw new RangeError(`records of ${width} words with ${keyWords} key words: need 0 <= key words <= width, width >= 1`);
  }
  if (!Number.isInteger(count) || count < 0 || count * width > records.length) throw new RangeError(`${count} records of ${width} words: more than the ${records.length} words given`);
  if (o.owners && o.owners.length < count) throw new RangeError(`${count} records: only ${o.owners.length} owners`);
  const maxDigitBits = o.digitBits ?? DEFAULT_DIGIT_BITS;
  // Validates the digit width before any shortcut does.
  digitPlan(32, maxDigitBits);
  if (o.keys === 'uniform' && o.owners && keyWords === width) {
    return sortUniformKeys(records, o.owners, { width, count });
  }
  // A pass costs up to 65,536 counters whatever the count: a few records sort by comparison.
  if (count < 2 ** Math.min(maxDigitBits, DEFAULT_DIGIT_BITS) / 16) return comparisonSorted(records, o.owners, width, keyWords, count);
  return lsdSorted(records, o.owners, { width, keyWords, count, maxDigitBits });
}

interface LsdShape {
  readonly width: number;
  readonly keyWords: number;
  readonly count: number;
  readonly maxDigitBits: number;
}

/**
 * The LSD passes: the records (and owners) sorted, in the given arrays or in new ones. Owners
 * move in an array of their own beside the records: packing them into the records as one more
 * word costs two copies of everything and was 12-40% slower on 2.5-4 M fingerprints with owners
 * (docs/performance.md, "The redesign").
 */
function lsdSorted(records: Uint32Array, owners: Uint32Array | undefined, p: LsdShape): SortedRecords {
  const { width, keyWords, count, maxDigitBits } = p;
  let from = records;
  let fromOwners = owners;
  let to: Uint32Array | undefined;
  let toOwners: Uint32Array | undefined;
  let counts: Uint32Array | undefined;
  for (let word = keyWords - 1; word >= 0; word--) {
    let bits = 0;
    for (let i = 0; i < count; i++) bits |= from[i * width + word] as number;
    for (const { shift, mask, buckets } of digitsOf(bits, maxDigitBits)) {
      counts = zeroedCounts(counts, buckets);
      for (let i = 0; i < count; i++) {
        const d = ((from[i * width + word] as number) >>> shift) & mask;
        counts[d] = (counts[d] as number) + 1;
      }
      // Every record has the same digit: the pass would leave them as they are.
      if (counts[((from[word] as number) >>> shift) & mask] === count) continue;
      countsToStarts(counts, buckets);
      to ??= new Uint32Array(count * width);
      const pass = { count, width, word, shift, mask };
      if (fromOwners) {
        toOwners ??= new Uint32Array(count);
        scatterWithOwners(from, fromOwners, to, toOwners, counts, pass);
        [fromOwners, toOwners] = [toOwners, fromOwners];
      } else {
        scatter(from, to, counts, pass);
      }
      [from, to] = [to, from];
    }
  }
  return { records: from, owners: fromOwners };
}

/** `scatter`, each record's owner moving with it. */
function scatterWithOwners(from: Uint32Array, fromOwners: Uint32Array, to: Uint32Array, toOwners: Uint32Array, starts: Uint32Array, p: Pass): void {
  const { count, width, word, shift, mask } = p;
  for (let i = 0; i < count; i++) {
    const d = ((from[i * width + word] as number) >>> shift) & mask;
    const t = starts[d] as number;
    starts[d] = t + 1;
    for (let x = 0; x < width; x++) to[t * width + x] = from[i * width + x] as number;
    toOwners[t] = fromOwners[i] as number;
  }
}

/** Moves each record to its digit's next place. */
function scatter(from: Uint32Array, to: Uint32Array, starts: Uint32Array, p: Pass): void {
  const { count, width, word, shift, mask } = p;
  for (let i = 0; i < count; i++) {
    const d = ((from[i * width + word] as number) >>> shift) & mask;
    const t = starts[d] as number;
    starts[d] = t + 1;
    for (let x = 0; x < width; x++) to[t * width + x] = from[i * width + x] as number;
  }
}

interface Pass {
  readonly count: number;
  readonly width: number;
  readonly word: number;
  readonly shift: number;
  readonly mask: number;
}

function comparisonSorted(records: Uint32Array, owners: Uint32Array | undefined, width: number, keyWords: number, count: number): SortedRecords {
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((i, j) => {
    for (let w = 0; w < keyWords; w++) {
      const p = records[i * width + w] as number;
      const q = records[j * width + w] as number;
      if (p !== q) return p - q;
    }
    return i - j;
  });
  const out = new Uint32Array(count * width);
  const outOwners = owners ? new Uint32Array(count) : undefined;
  order.forEach((from, to) => {
    for (let x = 0; x < width; x++) out[to * width + x] = records[from * width + x] as number;
    if (outOwners) outOwners[to] = (owners as Uint32Array)[from] as number;
  });
  return { records: out, owners: outOwners };
}
