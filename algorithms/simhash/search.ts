/**
 * All pairs of documents whose fingerprints are within Hamming distance k, over typed arrays:
 * the local kernel's form of the Hamming-search job (`jobs.ts`), pair for pair and counter for
 * counter.
 *
 * Documents with identical fingerprints are first collapsed into groups (one distinct
 * fingerprint each): their pairs are all at distance 0 and need no table. Then each Manku table
 * (`tables.ts`) is searched on its own: sort the distinct fingerprints by the table's key bits,
 * compare every two in a run of equal keys, and report a pair within distance k when this table
 * is the first in which the two share a key. Tables are independent, so worker threads take
 * one or more each.
 *
 * Counters, the same in the job's reducer:
 * - fingerprint_comparisons: pairs of distinct fingerprints compared (in every table they share);
 * - candidate_pairs: the document pairs those comparisons stand for (|group a| × |group b|),
 *   plus the pairs inside each group of identical fingerprints, which are taken without one;
 * - output_pairs: document pairs reported.
 */
import { sharedU32 } from '../text/chunks.ts';
import { stableOrder } from '../../kernels/sort/stable-order.ts';
import { hamming, simhashScore } from './fingerprint.ts';
import { firstTable } from './tables.ts';

/** Distinct fingerprints, ascending, and the documents holding each. */
export interface FingerprintGroups {
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  /** CSR: the documents of fingerprint f are `docs[start[f] .. start[f+1])`, ascending */
  readonly start: Uint32Array;
  readonly docs: Uint32Array;
}

/**
 * Groups documents by fingerprint. `hi`/`lo` hold one fingerprint per entry of `docs`
 * (documents without a fingerprint are simply absent).
 */
export function groupFingerprints(hi: Uint32Array, lo: Uint32Array, docs: Uint32Array): FingerprintGroups {
  const n = docs.length;
  const order = stableOrder([hi, lo, docs]);
  const gHi = new Uint32Array(n);
  const gLo = new Uint32Array(n);
  const start = new Uint32Array(n + 1);
  const out = sharedU32(n);
  let groups = 0;
  for (let r = 0; r < n; r++) {
    const e = order[r] as number;
    const h = hi[e] as number;
    const l = lo[e] as number;
    if (groups === 0 || h !== gHi[groups - 1] || l !== gLo[groups - 1]) {
      gHi[groups] = h;
      gLo[groups] = l;
      start[groups] = r;
      groups++;
    }
    out[r] = docs[e] as number;
  }
  start[groups] = n;
  const shared = (xs: Uint32Array, length: number): Uint32Array => {
    const a = sharedU32(length);
    a.set(xs.subarray(0, length));
    return a;
  };
  return { hi: shared(gHi, groups), lo: shared(gLo, groups), start: shared(start, groups + 1), docs: out };
}

/** Pairs found and counted by one search task. */
export interface SearchResult {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  readonly fingerprintComparisons: number;
  readonly candidatePairs: number;
}

/** Growable pair output. */
class PairSink {
  a = new Uint32Array(1024);
  b = new Uint32Array(1024);
  score = new Float64Array(1024);
  n = 0;

  push(x: number, y: number, s: number): void {
    if (this.n === this.a.length) {
      const grow = <T extends Uint32Array | Float64Array>(arr: T, make: (c: number) => T): T => {
        const g = make(arr.length * 2);
        g.set(arr as never);
        return g;
      };
      this.a = grow(this.a, (c) => new Uint32Array(c));
      this.b = grow(this.b, (c) => new Uint32Array(c));
      this.score = grow(this.score, (c) => new Float64Array(c));
    }
    this.a[this.n] = x < y ? x : y;
    this.b[this.n] = x < y ? y : x;
    this.score[this.n] = s;
    this.n++;
  }

  result(fingerprintComparisons: number, candidatePairs: number): SearchResult {
    return {
      a: this.a.slice(0, this.n),
      b: this.b.slice(0, this.n),
      score: this.score.slice(0, this.n),
      fingerprintComparisons,
      candidatePairs,
    };
  }
}

/** Every pair of documents that share a fingerprint: distance 0, score 1. */
export function identicalPairs(g: FingerprintGroups): SearchResult {
  const sink = new PairSink();
  let candidates = 0;
  const F = g.hi.length;
  for (let f = 0; f < F; f++) {
    const s = g.start[f] as number;
    const e = g.start[f + 1] as number;
    candidates += ((e - s) * (e - s - 1)) / 2;
    for (let i = s; i < e; i++) for (let j = i + 1; j < e; j++) sink.push(g.docs[i] as number, g.docs[j] as number, 1);
  }
  return sink.result(0, candidates);
}

export interface TableSearchPayload {
  readonly groups: FingerprintGroups;
  readonly maskHi: Uint32Array;
  readonly maskLo: Uint32Array;
  readonly k: number;
  /** the tables this task searches */
  readonly tables: readonly number[];
}

/** Runs in a worker thread: the pairs within distance k that `tables` are the first to share. */
export function searchTables(p: TableSearchPayload): SearchResult {
  const { groups: g, maskHi, maskLo, k } = p;
  const F = g.hi.length;
  const keyHi = new Uint32Array(F);
  const keyLo = new Uint32Array(F);
  // The fingerprints in key order, gathered once per table so that comparing the members of a
  // bucket reads consecutive memory (a gather per comparison would miss the cache each time).
  const sHi = new Uint32Array(F);
  const sLo = new Uint32Array(F);
  const sSize = new Uint32Array(F);
  const sink = new PairSink();
  let comparisons = 0;
  let candidates = 0;
  for (const t of p.tables) {
    const mh = maskHi[t] as number;
    const ml = maskLo[t] as number;
    for (let f = 0; f < F; f++) {
      keyHi[f] = (g.hi[f] as number) & mh;
      keyLo[f] = (g.lo[f] as number) & ml;
    }
    const order = stableOrder([keyHi, keyLo]);
    for (let r = 0; r < F; r++) {
      const f = order[r] as number;
      sHi[r] = g.hi[f] as number;
      sLo[r] = g.lo[f] as number;
      sSize[r] = (g.start[f + 1] as number) - (g.start[f] as number);
    }
    for (let r = 0; r < F; ) {
      const kh = (sHi[r] as number) & mh;
      const kl = (sLo[r] as number) & ml;
      let end = r + 1;
      while (end < F && ((sHi[end] as number) & mh) === kh && ((sLo[end] as number) & ml) === kl) end++;
      for (let i = r; i < end; i++) {
        const xh = sHi[i] as number;
        const xl = sLo[i] as number;
        const xs = sSize[i] as number;
        for (let j = i + 1; j < end; j++) {
          const yh = sHi[j] as number;
          const yl = sLo[j] as number;
          comparisons++;
          candidates += xs * (sSize[j] as number);
          const d = hamming(xh, xl, yh, yl);
          if (d > k || firstTable(maskHi, maskLo, xh ^ yh, xl ^ yl) !== t) continue;
          const score = simhashScore(d);
          const x = order[i] as number;
          const y = order[j] as number;
          for (let u = g.start[x] as number; u < (g.start[x + 1] as number); u++) {
            for (let v = g.start[y] as number; v < (g.start[y + 1] as number); v++) sink.push(g.docs[u] as number, g.docs[v] as number, score);
          }
        }
      }
      r = end;
    }
  }
  return sink.result(comparisons, candidates);
}
