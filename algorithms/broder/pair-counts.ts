/**
 * Counts per document pair in typed arrays: an open-addressing hash table keyed by (a, b).
 * MR#1's reducer adds millions of pair increments per task; a JS Map keyed by a·2^26 + b
 * boxes every key as a heap number and runs about ten times slower.
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
}
