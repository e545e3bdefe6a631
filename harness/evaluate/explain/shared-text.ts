/**
 * What two documents share, from the ground truth's features (contract/explain.ts): the exact
 * resemblance (docs/design.md §4.3: the Jaccard of the two feature sets, as the ground truth's
 * join computes it) and the shared text, every occurrence of a shared feature merged into
 * spans of each document. Every occurrence of a shared feature lies in a span, so the features
 * inside the spans of both documents are exactly the shared ones.
 */
import type { FeatureOccurrences } from '../../../contract/index.ts';

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

/** The shared occurrences of `occ` merged where they overlap or touch, in text order. */
export function mergedSpans(occ: FeatureOccurrences, shared: ReadonlySet<string>): SharedSpan[] {
  const order: number[] = [];
  occ.keys.forEach((k, i) => {
    if (shared.has(k)) order.push(i);
  });
  order.sort((i, j) => (occ.starts[i] as number) - (occ.starts[j] as number) || (occ.ends[i] as number) - (occ.ends[j] as number));
  const spans: SharedSpan[] = [];
  let cur: { start: number; end: number; occurrences: number } | undefined;
  for (const i of order) {
    const s = occ.starts[i] as number;
    const e = occ.ends[i] as number;
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

/** `sets`: each document's distinct keys, when the caller keeps them (a run explains a document for many variants). */
export function sharedText(a: FeatureOccurrences, b: FeatureOccurrences, sets?: { readonly a: ReadonlySet<string>; readonly b: ReadonlySet<string> }): SharedText {
  const setA = sets?.a ?? new Set(a.keys);
  const setB = sets?.b ?? new Set(b.keys);
  const shared = new Set<string>();
  const [small, large] = setA.size <= setB.size ? [setA, setB] : [setB, setA];
  for (const k of small) if (large.has(k)) shared.add(k);
  const union = setA.size + setB.size - shared.size;
  return {
    featuresA: setA.size,
    featuresB: setB.size,
    shared: shared.size,
    resemblance: union === 0 ? null : shared.size / union,
    spansA: mergedSpans(a, shared),
    spansB: mergedSpans(b, shared),
  };
}
