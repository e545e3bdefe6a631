/**
 * A document's feature occurrences as a set, and what two such sets share, by the features'
 * numbers (FeatureOccurrences.ids; offsets.ts numbers shingles densely). The ground truth's
 * shared text (harness/evaluate/explain/shared-text.ts) and a detector's evidence (Broder's)
 * ask this of the same documents and pairs in a run's error samples: each answer is kept with
 * the ids it is of (the same array: offsets.ts keeps a document's shingles), so it is made once.
 *
 * Each loop is a function of its own, with no look-up of a cache or fallback inlined into it:
 * V8 compiles a function whose loop runs hot with all it inlines, and the error step runs this
 * code once a process, cold, while its compilations take a core (docs/performance.md).
 */
import { IdMarks } from '../../kernels/id-marks.ts';

/** A document's distinct features by number. */
export interface DistinctOccurrences {
  /** the distinct ids, in order of first occurrence */
  readonly distinct: Uint32Array;
  /** occurrence k is the feature `distinct[rank[k]]` */
  readonly rank: Uint32Array;
  /** the occurrence where each distinct feature first lies */
  readonly first: Uint32Array;
}

/** Which distinct features of each document the other holds too. */
export interface SharedFeatures {
  readonly count: number;
  /** 1 where `x.distinct[i]` is shared */
  readonly x: Uint8Array;
  /** 1 where `y.distinct[j]` is shared */
  readonly y: Uint8Array;
}

/** Sets of ids as marks; an id at or above its cap goes through a Map instead. */
const marks = new IdMarks();

const distinctOf = new WeakMap<Uint32Array, DistinctOccurrences>();
const sharedOf = new WeakMap<DistinctOccurrences, WeakMap<DistinctOccurrences, SharedFeatures>>();

function maxOf(xs: Uint32Array): number {
  let m = -1;
  for (let i = 0; i < xs.length; i++) if ((xs[i] as number) > m) m = xs[i] as number;
  return m;
}

/** The distinct features of the occurrences `ids`, kept for as long as `ids` is. */
export function distinctOccurrences(ids: Uint32Array): DistinctOccurrences {
  let d = distinctOf.get(ids);
  if (!d) distinctOf.set(ids, (d = marks.start(maxOf(ids) + 1) ? distinctByMarks(ids) : distinctByMap(ids)));
  return d;
}

/** Makes `d` the distinct features of `ids` (`distinctOccurrences` then gives it): for a numbering that makes both in one pass (numbering64-wasm.ts). */
export function knownDistinct(ids: Uint32Array, d: DistinctOccurrences): void {
  distinctOf.set(ids, d);
}

function distinctByMarks(ids: Uint32Array): DistinctOccurrences {
  const distinct = new Uint32Array(ids.length);
  const first = new Uint32Array(ids.length);
  const rank = new Uint32Array(ids.length);
  const n = markDistinct(ids, { distinct, first, rank });
  return { distinct: distinct.slice(0, n), rank, first: first.slice(0, n) };
}

/** distinctByMarks' loop, into `out`: how many distinct ids there are. */
function markDistinct(ids: Uint32Array, out: { readonly distinct: Uint32Array; readonly first: Uint32Array; readonly rank: Uint32Array }): number {
  const { distinct, first, rank } = out;
  let n = 0;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (!marks.has(id)) {
      marks.add(id, n);
      first[n] = k;
      distinct[n++] = id;
    }
    rank[k] = marks.placeOf(id);
  }
  return n;
}

function distinctByMap(ids: Uint32Array): DistinctOccurrences {
  const distinct = new Uint32Array(ids.length);
  const first = new Uint32Array(ids.length);
  const rank = new Uint32Array(ids.length);
  const place = new Map<number, number>();
  let n = 0;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    let r = place.get(id);
    if (r === undefined) {
      place.set(id, (r = n));
      first[n] = k;
      distinct[n++] = id;
    }
    rank[k] = r;
  }
  return { distinct: distinct.slice(0, n), rank, first: first.slice(0, n) };
}

/** What `x` and `y` share (their ids numbered alike), kept for as long as both are. */
export function sharedFeatures(x: DistinctOccurrences, y: DistinctOccurrences): SharedFeatures {
  let ofX = sharedOf.get(x);
  if (!ofX) sharedOf.set(x, (ofX = new WeakMap()));
  let s = ofX.get(y);
  if (!s) {
    const flags = { x: new Uint8Array(x.distinct.length), y: new Uint8Array(y.distinct.length) };
    ofX.set(y, (s = { count: intersect(x.distinct, y.distinct, flags), ...flags }));
  }
  return s;
}

/** |X ∩ Y| of two lists of distinct ids, and which of each are shared when `flags` are given. */
function intersect(x: Uint32Array, y: Uint32Array, flags?: Flags): number {
  return marks.start(Math.max(maxOf(x), maxOf(y)) + 1) ? intersectByMarks(x, y, flags) : intersectByMap(x, y, flags);
}

interface Flags {
  readonly x: Uint8Array;
  readonly y: Uint8Array;
}

function intersectByMarks(x: Uint32Array, y: Uint32Array, flags: Flags | undefined): number {
  for (let i = 0; i < x.length; i++) marks.add(x[i] as number, i);
  let count = 0;
  for (let j = 0; j < y.length; j++) {
    const id = y[j] as number;
    if (!marks.has(id)) continue;
    count++;
    if (flags) {
      flags.x[marks.placeOf(id)] = 1;
      flags.y[j] = 1;
    }
  }
  return count;
}

function intersectByMap(x: Uint32Array, y: Uint32Array, flags: Flags | undefined): number {
  const place = new Map<number, number>();
  x.forEach((id, i) => place.set(id, i));
  let count = 0;
  y.forEach((id, j) => {
    const i = place.get(id);
    if (i === undefined) return;
    count++;
    if (flags) {
      flags.x[i] = 1;
      flags.y[j] = 1;
    }
  });
  return count;
}

/**
 * |X ∩ Y| / |X ∪ Y| of two documents' features (0 for two without a feature), nothing kept: a
 * cluster's chain (harness/evaluate/explain/chain.ts) weighs many links once each.
 */
export function distinctJaccard(x: DistinctOccurrences, y: DistinctOccurrences): number {
  const both = intersect(x.distinct, y.distinct);
  const union = x.distinct.length + y.distinct.length - both;
  return union === 0 ? 0 : both / union;
}
