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
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`KeyTable: width must be a positive integer, got ${width}`);
    this.width = width;
    let slots = 16;
    while (slots < 2 * expected) slots *= 2;
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
    if ((id + 1) * w > this.store.length) this.grow((id + 1) * w);
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

  /**
   * `id` of the two-word key (w0, w1) in a table of width 2: the same hash, slot and id, without
   * the loops over the words (an explanation numbers every shingle of the documents it shows).
   */
  id2(w0: number, w1: number): number {
    if (this.width !== 2) throw new RangeError(`KeyTable: id2 is for keys of 2 words, this table's have ${this.width}`);
    const slots = this.slots;
    let slot = finalized(mixWord(mixWord(0, w0), w1)) & this.mask;
    const gen = this.generation;
    for (;;) {
      const base = slot * 4;
      if (slots[base] !== gen) break;
      if (slots[base + 2] === w0 && slots[base + 3] === w1) return slots[base + 1] as number;
      slot = (slot + 1) & this.mask;
    }
    return this.add2(slot, w0, w1);
  }

  /**
   * `id2` of each two-word key of `data` (2 words a key, `out.length` keys) into `out`: one call
   * a document instead of one a key, the loop and the hash in one function (an explanation
   * numbers a document's shingles while this code is still cold, and calls cost most then).
   */
  ids2(data: Uint32Array, out: Uint32Array): void {
    if (this.width !== 2) throw new RangeError(`KeyTable: ids2 is for keys of 2 words, this table's have ${this.width}`);
    for (let k = 0; k < out.length; k++) {
      const w0 = data[2 * k] as number;
      const w1 = data[2 * k + 1] as number;
      // mixWord(mixWord(0, w0), w1), then finalized: the hash `id` computes
      let m = Math.imul(w0, 0xcc9e2d51);
      m = Math.imul((m ^ (m >>> 15)) ^ w1, 0xcc9e2d51);
      let h = m ^ (m >>> 15);
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      let slot = (h ^ (h >>> 16)) & this.mask;
      const slots = this.slots;
      const gen = this.generation;
      for (;;) {
        const base = slot * 4;
        if (slots[base] !== gen) break;
        if (slots[base + 2] === w0 && slots[base + 3] === w1) break;
        slot = (slot + 1) & this.mask;
      }
      out[k] = slots[slot * 4] === gen ? (slots[slot * 4 + 1] as number) : this.add2(slot, w0, w1);
    }
  }

  /**
   * Adds the two-word key (w0, w1) with the next id at `slot`, the empty slot its probe ended on,
   * as `id` adds a key, without its loops over the words: an explanation's documents are mostly
   * new keys, numbered while this code is still cold.
   */
  private add2(slot: number, w0: number, w1: number): number {
    const id = this.count++;
    if (2 * id + 2 > this.store.length) this.grow(2 * id + 2);
    const base = slot * 4;
    this.slots[base] = this.generation;
    this.slots[base + 1] = id;
    this.slots[base + 2] = w0;
    this.slots[base + 3] = w1;
    this.store[2 * id] = w0;
    this.store[2 * id + 1] = w1;
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

  /** Room in `store` for at least `words` words. */
  private grow(words: number): void {
    const grown = new Uint32Array(Math.max(2 * this.store.length, words));
    grown.set(this.store);
    this.store = grown;
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

/** One word of a key into its hash. */
function mixWord(h: number, word: number): number {
  const m = Math.imul(h ^ word, 0xcc9e2d51);
  return m ^ (m >>> 15);
}

/** murmur3's finalizer: every bit of every word into the slot bits. */
function finalized(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}
