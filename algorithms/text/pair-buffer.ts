/**
 * Scored pairs appended one at a time on a worker thread's hot path, in typed arrays that double
 * when full (the join's output size is not known until it is done).
 */
import type { PairList } from '../../contract/index.ts';

export class PairBuffer {
  private a: Uint32Array;
  private b: Uint32Array;
  private s: Float64Array;
  private n = 0;

  constructor(capacity = 1024) {
    this.a = new Uint32Array(capacity);
    this.b = new Uint32Array(capacity);
    this.s = new Float64Array(capacity);
  }

  push(a: number, b: number, score: number): void {
    if (this.n === this.a.length) this.grow();
    this.a[this.n] = a;
    this.b[this.n] = b;
    this.s[this.n] = score;
    this.n++;
  }

  get size(): number {
    return this.n;
  }

  /** The pairs pushed, in arrays of their own length. */
  result(): PairList {
    return { a: this.a.slice(0, this.n), b: this.b.slice(0, this.n), score: this.s.slice(0, this.n) };
  }

  private grow(): void {
    const cap = Math.max(16, this.a.length * 2);
    const a = new Uint32Array(cap);
    a.set(this.a);
    this.a = a;
    const b = new Uint32Array(cap);
    b.set(this.b);
    this.b = b;
    const s = new Float64Array(cap);
    s.set(this.s);
    this.s = s;
  }
}
