/**
 * Pairs: what every detector outputs. In memory a `PairList` of document indexes a < b with a
 * score in [0, 1]; as MapReduce records (the plan's pairs dataset) one record a pair,
 * key `a:b`, value the score as `formatScore` writes it. One decoder reads the records back on
 * every backend, so a malformed record is reported the same way wherever it was produced.
 */

/** Pairs by document index, a < b, in no particular order. */
export interface PairList {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
}

/** Formats a score so that every backend writes the same text for the same double. */
export function formatScore(x: number): string {
  return String(x);
}

/** The key of a pair record. */
export function pairKey(a: number, b: number): string {
  return `${a}:${b}`;
}

const PAIR_KEY = /^(\d+):(\d+)$/;

/**
 * Collects pair records into a PairList. `add` throws a one-line error naming `where` (a file
 * and line) for a record that is not `a:b<TAB>score` with a < b < documents and 0 <= score <= 1:
 * such a record is a bug in the detector's jobs, not a user error.
 */
export class PairCollector {
  private a: number[] = [];
  private b: number[] = [];
  private s: number[] = [];

  constructor(private readonly documents: number) {}

  add(key: string, value: string, where: () => string): void {
    const m = PAIR_KEY.exec(key);
    const x = m ? Number(m[1]) : NaN;
    const y = m ? Number(m[2]) : NaN;
    const score = value.trim() === '' ? NaN : Number(value);
    if (!(x < y && y < this.documents) || !(score >= 0 && score <= 1)) {
      const shown = JSON.stringify(`${key}\t${value}`.slice(0, 80));
      throw new Error(`${where()}: not a pair record "a:b<TAB>score" with a < b < ${this.documents}, 0 <= score <= 1: ${shown}`);
    }
    this.a.push(x);
    this.b.push(y);
    this.s.push(score);
  }

  get size(): number {
    return this.a.length;
  }

  result(): PairList {
    return { a: Uint32Array.from(this.a), b: Uint32Array.from(this.b), score: Float64Array.from(this.s) };
  }
}

/** Concatenates pair lists (the parts a kernel's worker threads return). */
export function concatPairs(parts: readonly PairList[]): PairList {
  const n = parts.reduce((s, p) => s + p.a.length, 0);
  const a = new Uint32Array(n);
  const b = new Uint32Array(n);
  const score = new Float64Array(n);
  let at = 0;
  for (const p of parts) {
    a.set(p.a, at);
    b.set(p.b, at);
    score.set(p.score, at);
    at += p.a.length;
  }
  return { a, b, score };
}
