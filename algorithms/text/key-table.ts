/**
 * Dense ids for fixed-width binary keys (64-bit fingerprints, 160-bit digests) held in typed
 * arrays: an open-addressing hash table, linear probing, that numbers the distinct keys 0, 1, …
 * in the order they are first seen. It replaces a `Map<string, number>` over hex strings, whose
 * string building, flattening and hashing cost more than the fingerprinting itself (PDC-MR's
 * kernel spent half its time there).
 *
 * `clear()` is O(1) (slots are stamped with a generation), so one table can dedupe the keys of
 * every sentence of a corpus in turn. A slot holds its stamp, id and key side by side, so that a
 * probe of a large table touches one cache line.
 */
export class KeyTable {
  /** uint32 words per key */
  readonly width: number;
  /** the distinct keys, `width` words each, by id */
  private store: Uint32Array;
  /** `width + 2` words a slot: stamp, id, key; in use where the stamp is `generation` */
  private slots: Uint32Array;
  private readonly stride: number;
  private generation = 1;
  private mask: number;
  private count = 0;

  constructor(width: number, expected = 16) {
    this.width = checkedWidth('KeyTable', width);
    const slots = slotsFor(expected);
    this.mask = slots - 1;
    this.stride = width + 2;
    this.slots = new Uint32Array(slots * this.stride);
    this.store = new Uint32Array(Math.max(1, expected) * width);
  }

  /** Number of distinct keys since the last `clear()`. */
  get size(): number {
    return this.count;
  }

  /** The id of the key `data[at .. at + width)`, adding it (with the next id) when it is new. */
  id(data: ArrayLike<number>, at: number): number {
    const w = this.width;
    const stride = this.stride;
    const slots = this.slots;
    // Fingerprints are uniform already, but a key of digits is not: murmur3's finalizer mixes
    // every bit of every word into the slot bits.
    let h = 0;
    for (let k = 0; k < w; k++) h = mixWord(h, data[at + k] as number);
    let slot = finalized(h) & this.mask;
    const gen = this.generation;
    for (;;) {
      const base = slot * stride;
      if (slots[base] !== gen) break;
      let k = 0;
      while (k < w && slots[base + 2 + k] === data[at + k]) k++;
      if (k === w) return slots[base + 1] as number;
      slot = (slot + 1) & this.mask;
    }
    const id = this.count++;
    if ((id + 1) * w > this.store.length) this.store = withRoom(this.store, (id + 1) * w);
    const base = slot * stride;
    slots[base] = gen;
    slots[base + 1] = id;
    for (let k = 0; k < w; k++) {
      const x = data[at + k] as number;
      slots[base + 2 + k] = x;
      this.store[id * w + k] = x;
    }
    if (2 * this.count > this.mask + 1) this.rehash();
    return id;
  }

  /** Forgets every key. */
  clear(): void {
    this.count = 0;
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.slots.fill(0);
      this.generation = 1;
    }
  }

  /** The distinct keys by id, `width` words each (a view: valid until the next `id` or `clear`). */
  keys(): Uint32Array {
    return this.store.subarray(0, this.count * this.width);
  }

  private rehash(): void {
    const slots = 2 * (this.mask + 1);
    this.mask = slots - 1;
    this.slots = new Uint32Array(slots * this.stride);
    this.generation = 1;
    const n = this.count;
    this.count = 0;
    // Re-adding the keys in id order gives them their ids again.
    for (let id = 0; id < n; id++) this.id(this.store, id * this.width);
  }
}

/** `width` when it is a positive integer; else a RangeError naming `table`. */
export function checkedWidth(table: string, width: number): number {
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`${table}: width must be a positive integer, got ${width}`);
  return width;
}

/** Slots for `expected` keys: a power of two, at least 16 and twice the keys. */
export function slotsFor(expected: number): number {
  let slots = 16;
  while (slots < 2 * expected) slots *= 2;
  return slots;
}

/** `store`, or a copy of it twice as long or more, with room for at least `words` words. */
export function withRoom(store: Uint32Array, words: number): Uint32Array {
  if (words <= store.length) return store;
  const grown = new Uint32Array(Math.max(2 * store.length, words));
  grown.set(store);
  return grown;
}

/** One word of a key into its hash. */
export function mixWord(h: number, word: number): number {
  const m = Math.imul(h ^ word, 0xcc9e2d51);
  return m ^ (m >>> 15);
}

/** murmur3's finalizer: every bit of every word into the slot bits. */
export function finalized(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}
