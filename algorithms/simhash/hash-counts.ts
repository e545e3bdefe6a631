/**
 * Counts keyed by 64-bit feature hashes in typed arrays (open addressing, linear probing): the
 * frozen document-frequency table every fingerprinting task looks features up in. A JS Map keyed
 * by strings would cost a substring per feature; here a lookup is a few integer operations, and
 * the arrays can live on SharedArrayBuffers that worker threads read without copies.
 */
import { sharedU32 } from '../text/chunks.ts';

/** The arrays of a table, as a worker receives them. */
export interface HashCountArrays {
  readonly keysHi: Uint32Array;
  readonly keysLo: Uint32Array;
  /** 0 marks an empty slot: every stored count is at least 1 */
  readonly counts: Uint32Array;
}

function slotOf(hi: number, lo: number, mask: number): number {
  // The hashes are already well mixed; fold both words so that either half alone suffices.
  return (Math.imul(hi ^ (lo >>> 7), 0x9e3779b1) ^ lo) & mask;
}

export class HashCounts {
  private keysHi: Uint32Array;
  private keysLo: Uint32Array;
  private counts: Uint32Array;
  private mask: number;
  size = 0;

  constructor(expected = 1024, arrays?: HashCountArrays) {
    if (arrays) {
      this.keysHi = arrays.keysHi;
      this.keysLo = arrays.keysLo;
      this.counts = arrays.counts;
      this.mask = arrays.counts.length - 1;
      for (let i = 0; i < this.counts.length; i++) if (this.counts[i] !== 0) this.size++;
      return;
    }
    let cap = 1024;
    while (cap < expected * 2) cap *= 2;
    this.keysHi = new Uint32Array(cap);
    this.keysLo = new Uint32Array(cap);
    this.counts = new Uint32Array(cap);
    this.mask = cap - 1;
  }

  /** A read-only view of arrays made by `shared()` (in a worker thread). */
  static over(arrays: HashCountArrays): HashCounts {
    return new HashCounts(0, arrays);
  }

  /** The count of (hi, lo), 0 when absent. */
  get(hi: number, lo: number): number {
    let slot = slotOf(hi, lo, this.mask);
    for (;;) {
      const c = this.counts[slot] as number;
      if (c === 0) return 0;
      if (this.keysHi[slot] === hi && this.keysLo[slot] === lo) return c;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Adds `amount` (>= 1) to the count of (hi, lo). */
  add(hi: number, lo: number, amount: number): void {
    if ((this.size + 1) * 2 > this.counts.length) this.grow();
    let slot = slotOf(hi, lo, this.mask);
    for (;;) {
      const c = this.counts[slot] as number;
      if (c === 0) {
        this.keysHi[slot] = hi;
        this.keysLo[slot] = lo;
        this.counts[slot] = amount;
        this.size++;
        return;
      }
      if (this.keysHi[slot] === hi && this.keysLo[slot] === lo) {
        this.counts[slot] = c + amount;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Visits every (hi, lo, count), in slot order. */
  forEach(visit: (hi: number, lo: number, count: number) => void): void {
    for (let slot = 0; slot <= this.mask; slot++) {
      const c = this.counts[slot] as number;
      if (c !== 0) visit(this.keysHi[slot] as number, this.keysLo[slot] as number, c);
    }
  }

  /** The entries packed as (hi, lo, count) triples: what a worker sends back. */
  entries(): Uint32Array {
    const out = new Uint32Array(this.size * 3);
    let at = 0;
    this.forEach((hi, lo, c) => {
      out[at++] = hi;
      out[at++] = lo;
      out[at++] = c;
    });
    return out;
  }

  /** A copy on SharedArrayBuffers, for worker threads to read. */
  shared(): HashCountArrays {
    const keysHi = sharedU32(this.counts.length);
    const keysLo = sharedU32(this.counts.length);
    const counts = sharedU32(this.counts.length);
    keysHi.set(this.keysHi);
    keysLo.set(this.keysLo);
    counts.set(this.counts);
    return { keysHi, keysLo, counts };
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return this.counts.length * 12;
  }

  private grow(): void {
    const old = { hi: this.keysHi, lo: this.keysLo, c: this.counts };
    const cap = this.counts.length * 2;
    this.keysHi = new Uint32Array(cap);
    this.keysLo = new Uint32Array(cap);
    this.counts = new Uint32Array(cap);
    this.mask = cap - 1;
    this.size = 0;
    for (let i = 0; i < old.c.length; i++) {
      const c = old.c[i] as number;
      if (c !== 0) this.add(old.hi[i] as number, old.lo[i] as number, c);
    }
  }
}
