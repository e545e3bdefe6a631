/**
 * Dense ids for the fingerprints of the documents explanations show (offsets.ts
 * ShingleOccurrences): 0, 1, … in the order first seen, kept for the life of the process and
 * never cleared, so that ids held elsewhere keep their meaning.
 *
 * KeyTable (key-table.ts) serves the kernels: large tables, cleared sentence after sentence, a
 * slot holding its stamp, id and key so that a probe of a table far larger than the cache
 * touches one line. This table is small (an error sample's documents: tens of thousands of
 * fingerprints) and only grows: a slot holds id + 1 (0: empty) and keys are compared where the
 * ids keep them, 4 bytes a slot instead of 16, which keeps the table in a core's cache. Numbering
 * the shingles of a quickstart's error samples took 24 ms of the step with KeyTable's slots
 * (docs/performance.md).
 */
import { checkedWidth, finalized, mixWord, slotsFor, withRoom } from './key-table.ts';

/** What explanations read of a numbering: the keys by id, and one in hex (this table, and numbering64-wasm.ts's for 64-bit keys). */
export interface Numbering {
  /** uint32 words per key */
  readonly width: number;
  readonly size: number;
  /** the distinct keys by id, `width` words each (a view: valid until the next key is added) */
  keys(): Uint32Array;
  hexOf(id: number): string;
}

export class FingerprintNumbering implements Numbering {
  /** uint32 words per key */
  readonly width: number;
  /** the distinct keys, `width` words each, by id */
  private store: Uint32Array;
  /** id + 1 of the key a slot holds, 0 where empty */
  private slots: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(width: number, expected = 16) {
    this.width = checkedWidth('FingerprintNumbering', width);
    const slots = slotsFor(expected);
    this.mask = slots - 1;
    this.slots = new Uint32Array(slots);
    this.store = new Uint32Array(Math.max(1, expected) * width);
  }

  /** Number of distinct keys. */
  get size(): number {
    return this.count;
  }

  /** The distinct keys by id, `width` words each (a view: valid until the next key is added). */
  keys(): Uint32Array {
    return this.store.subarray(0, this.count * this.width);
  }

  /** Key `id` in hex, as fingerprintHex writes it (explanations show a few thousand a run: no view of the keys made for each). */
  hexOf(id: number): string {
    return hexOfWords(this.store, id * this.width, this.width);
  }

  /** The id of the key `data[at .. at + width)`, adding it (with the next id) when it is new. */
  id(data: ArrayLike<number>, at: number): number {
    const w = this.width;
    let h = 0;
    for (let k = 0; k < w; k++) h = mixWord(h, data[at + k] as number);
    let slot = finalized(h) & this.mask;
    for (;;) {
      const held = this.slots[slot] as number;
      if (held === 0) break;
      const base = (held - 1) * w;
      let k = 0;
      while (k < w && this.store[base + k] === data[at + k]) k++;
      if (k === w) return held - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.count++;
    if ((id + 1) * w > this.store.length) this.store = withRoom(this.store, (id + 1) * w);
    for (let k = 0; k < w; k++) this.store[id * w + k] = data[at + k] as number;
    this.slots[slot] = id + 1;
    if (2 * this.count > this.mask + 1) this.rehash();
    return id;
  }

  /** Twice the slots, every key in its slot of the larger table (ids unchanged). */
  private rehash(): void {
    const size = 2 * (this.mask + 1);
    this.mask = size - 1;
    this.slots = new Uint32Array(size);
    const w = this.width;
    for (let id = 0; id < this.count; id++) {
      let h = 0;
      for (let k = 0; k < w; k++) h = mixWord(h, this.store[id * w + k] as number);
      let slot = finalized(h) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    }
  }
}

/**
 * fingerprintHex of the `width` words at `at`, by the built-in conversion: an explanation shows a
 * few fingerprints, and the 65,536-entry table fingerprintHex builds for the kernels' millions
 * cost more than all of them (docs/performance.md, the error step an eighth time).
 */
export function hexOfWords(words: Uint32Array, at: number, width: number): string {
  if (width === 2) return wordHex(words[at] as number) + wordHex(words[at + 1] as number);
  let hex = '';
  for (let k = 0; k < width; k++) hex += wordHex(words[at + k] as number);
  return hex;
}

/** A 32-bit word as 8 hex digits, by nibbles: Number#toString(16) and padStart cost more (an error sample shows thousands). */
function wordHex(w: number): string {
  return String.fromCharCode(HEX[w >>> 28] as number, HEX[(w >>> 24) & 15] as number, HEX[(w >>> 20) & 15] as number, HEX[(w >>> 16) & 15] as number, HEX[(w >>> 12) & 15] as number, HEX[(w >>> 8) & 15] as number, HEX[(w >>> 4) & 15] as number, HEX[w & 15] as number);
}

const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
