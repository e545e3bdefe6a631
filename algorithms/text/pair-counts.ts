/**
 * Counts per document pair in typed arrays: an open-addressing hash table keyed by (a, b).
 * A join adds millions of pair increments (Broder's MR#1 reducer, the external-memory pair
 * counting of `pair-count-runs.ts`); a JS Map keyed by a·2^26 + b boxes every key as a heap
 * number and runs about ten times slower.
 */
export class PairCounts {
  private keysA: Uint32Array;
  private keysB: Uint32Array;
  private counts: Uint32Array;
  private mask: number;
  size = 0;

  constructor(readonly capacityPairs: number) {
    let cap = 1024;
    while (cap < capacityPairs * 2) cap *= 2;
    this.keysA = new Uint32Array(cap);
    this.keysB = new Uint32Array(cap);
    this.counts = new Uint32Array(cap);
    this.mask = cap - 1;
  }

  /** Bytes the table holds for `capacityPairs` (three words a slot, at most half the slots full). */
  static bytesFor(capacityPairs: number): number {
    let cap = 1024;
    while (cap < capacityPairs * 2) cap *= 2;
    return cap * 12;
  }

  /** Adds one to the count of (a, b). */
  increment(a: number, b: number): void {
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b)) & this.mask;
    for (;;) {
      const c = this.counts[slot] as number;
      if (c === 0) {
        this.keysA[slot] = a;
        this.keysB[slot] = b;
        this.counts[slot] = 1;
        this.size++;
        return;
      }
      if (this.keysA[slot] === a && this.keysB[slot] === b) {
        this.counts[slot] = c + 1;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Visits every (a, b, count) and empties the table. */
  drain(visit: (a: number, b: number, count: number) => void): void {
    for (let slot = 0; slot <= this.mask; slot++) {
      const c = this.counts[slot] as number;
      if (c === 0) continue;
      visit(this.keysA[slot] as number, this.keysB[slot] as number, c);
      this.counts[slot] = 0;
    }
    this.size = 0;
  }

  /** Moves every (a, b, count) into `out` as three words a record, in slot order; empties the table; returns the records. */
  drainRecords(out: Uint32Array): number {
    let n = 0;
    for (let slot = 0; slot <= this.mask; slot++) {
      const c = this.counts[slot] as number;
      if (c === 0) continue;
      out[n * 3] = this.keysA[slot] as number;
      out[n * 3 + 1] = this.keysB[slot] as number;
      out[n * 3 + 2] = c;
      this.counts[slot] = 0;
      n++;
    }
    this.size = 0;
    return n;
  }
}
