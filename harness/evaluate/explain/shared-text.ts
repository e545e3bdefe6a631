/**
 * What two documents share, from the ground truth's features (contract/explain.ts): the exact
 * resemblance (docs/design.md §4.3: the Jaccard of the two feature sets, as the ground truth's
 * join computes it) and the shared text, every occurrence of a shared feature merged into
 * spans of each document. Every occurrence of a shared feature lies in a span, so the features
 * inside the spans of both documents are exactly the shared ones.
 *
 * Documents are compared by numbers (NumberedFeatures): the adapter's ids when it gives them,
 * else the keys numbered here. A run's error samples compare a few hundred documents in
 * thousands of pairs and chains, and strings were most of that cost.
 */
import type { FeatureOccurrences } from '../../../contract/index.ts';
import { IdMarks } from '../../../kernels/id-marks.ts';

/** A span of one document: [start, end) of its original text and the shared occurrences in it. */
export interface SharedSpan {
  readonly start: number;
  readonly end: number;
  readonly occurrences: number;
}

export interface SharedText {
  /** distinct features of each document */
  readonly featuresA: number;
  readonly featuresB: number;
  readonly shared: number;
  /** shared / (featuresA + featuresB − shared); null when neither has a feature (0/0 is not a score) */
  readonly resemblance: number | null;
  readonly spansA: readonly SharedSpan[];
  readonly spansB: readonly SharedSpan[];
}

/** A document's feature occurrences by number. */
export interface NumberedFeatures {
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /** the distinct feature ids, in order of first occurrence */
  readonly distinct: Uint32Array;
  /** occurrence k is the feature `distinct[rank[k]]` */
  readonly rank: Uint32Array;
  /** whether the occurrences are in order of (start, end) already (shingles are) */
  readonly inOrder: boolean;
}

/** Sets of ids as marks (kernels/id-marks.ts); an id at or above its cap goes through a Map instead. */
const marks = new IdMarks();

function maxOf(xs: Uint32Array): number {
  let m = -1;
  for (let i = 0; i < xs.length; i++) if ((xs[i] as number) > m) m = xs[i] as number;
  return m;
}

/**
 * `occ` by number: its `ids`, else its keys numbered by `numbering` (shared by the documents
 * compared, so that equal keys get equal numbers; absent: a numbering of this document alone).
 */
export function numberedFeatures(occ: FeatureOccurrences, numbering: Map<string, number> = new Map(), o: { readonly byKeys?: boolean } = {}): NumberedFeatures {
  const ids = (o.byKeys ? undefined : occ.ids) ?? Uint32Array.from(occ.keys, (k) => numbering.get(k) ?? (numbering.set(k, numbering.size), numbering.size - 1));
  const distinct = new Uint32Array(ids.length);
  const rank = new Uint32Array(ids.length);
  let n = 0;
  if (marks.start(maxOf(ids) + 1)) {
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (!marks.has(id)) {
        marks.add(id, n);
        distinct[n++] = id;
      }
      rank[k] = marks.placeOf(id);
    }
  } else {
    const place = new Map<number, number>();
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      let r = place.get(id);
      if (r === undefined) {
        place.set(id, (r = n));
        distinct[n++] = id;
      }
      rank[k] = r;
    }
  }
  let inOrder = true;
  for (let k = 1; k < ids.length && inOrder; k++) {
    const d = (occ.starts[k] as number) - (occ.starts[k - 1] as number);
    inOrder = d > 0 || (d === 0 && (occ.ends[k] as number) >= (occ.ends[k - 1] as number));
  }
  return { starts: occ.starts, ends: occ.ends, distinct: distinct.slice(0, n), rank, inOrder };
}

/** |A ∩ B| of two lists of distinct ids, and which of each are shared (when asked). */
function intersect(x: Uint32Array, y: Uint32Array, shared?: { readonly x: Uint8Array; readonly y: Uint8Array }): number {
  let both = 0;
  if (!marks.start(Math.max(maxOf(x), maxOf(y)) + 1)) {
    const place = new Map<number, number>();
    x.forEach((id, i) => place.set(id, i));
    y.forEach((id, j) => {
      const i = place.get(id);
      if (i === undefined) return;
      both++;
      if (shared) {
        shared.x[i] = 1;
        shared.y[j] = 1;
      }
    });
    return both;
  }
  for (let i = 0; i < x.length; i++) marks.add(x[i] as number, i);
  for (let j = 0; j < y.length; j++) {
    const id = y[j] as number;
    if (!marks.has(id)) continue;
    both++;
    if (shared) {
      shared.x[marks.placeOf(id)] = 1;
      shared.y[j] = 1;
    }
  }
  return both;
}

/** |A ∩ B| / |A ∪ B| of two documents' features (0 for two without a feature). */
export function featureJaccard(x: NumberedFeatures, y: NumberedFeatures): number {
  const both = intersect(x.distinct, y.distinct);
  const union = x.distinct.length + y.distinct.length - both;
  return union === 0 ? 0 : both / union;
}

/** The occurrences of shared features (`shared[rank]` set) merged where they overlap or touch, in text order. */
function mergedSpans(f: NumberedFeatures, shared: Uint8Array): SharedSpan[] {
  const order: number[] = [];
  for (let k = 0; k < f.rank.length; k++) if (shared[f.rank[k] as number] === 1) order.push(k);
  if (!f.inOrder) order.sort((i, j) => (f.starts[i] as number) - (f.starts[j] as number) || (f.ends[i] as number) - (f.ends[j] as number));
  const spans: SharedSpan[] = [];
  let cur: { start: number; end: number; occurrences: number } | undefined;
  for (const i of order) {
    const s = f.starts[i] as number;
    const e = f.ends[i] as number;
    if (cur && s <= cur.end) {
      cur.end = Math.max(cur.end, e);
      cur.occurrences++;
    } else {
      if (cur) spans.push(cur);
      cur = { start: s, end: e, occurrences: 1 };
    }
  }
  if (cur) spans.push(cur);
  return spans;
}

/** `numbered`: both documents by number, when the caller keeps them (a run explains a document for many variants). */
export function sharedText(a: FeatureOccurrences, b: FeatureOccurrences, numbered?: { readonly a: NumberedFeatures; readonly b: NumberedFeatures }): SharedText {
  const numbering = new Map<string, number>();
  // Ids number alike only the documents of one numbering: two given by different means are numbered here by their keys.
  const byKeys = !a.ids || !b.ids;
  const na = numbered?.a ?? numberedFeatures(a, numbering, { byKeys });
  const nb = numbered?.b ?? numberedFeatures(b, numbering, { byKeys });
  const marks = { x: new Uint8Array(na.distinct.length), y: new Uint8Array(nb.distinct.length) };
  const shared = intersect(na.distinct, nb.distinct, marks);
  const union = na.distinct.length + nb.distinct.length - shared;
  return {
    featuresA: na.distinct.length,
    featuresB: nb.distinct.length,
    shared,
    resemblance: union === 0 ? null : shared / union,
    spansA: mergedSpans(na, marks.x),
    spansB: mergedSpans(nb, marks.y),
  };
}
