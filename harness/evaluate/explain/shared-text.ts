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
import { distinctJaccard, distinctOccurrences, sharedFeatures, type DistinctOccurrences } from '../../../algorithms/text/occurrence-sets.ts';

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

/** A document's feature occurrences by number: where each lies, and the set they make (occurrence-sets.ts). */
export interface NumberedFeatures {
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly set: DistinctOccurrences;
  /** whether the occurrences are in order of (start, end) already (shingles are) */
  readonly inOrder: boolean;
}

/**
 * `occ` by number: its `ids`, else its keys numbered by `numbering` (shared by the documents
 * compared, so that equal keys get equal numbers; absent: a numbering of this document alone).
 * The set of a document's ids is made once, whoever asks (occurrence-sets.ts).
 */
export function numberedFeatures(occ: FeatureOccurrences, numbering: Map<string, number> = new Map(), o: { readonly byKeys?: boolean } = {}): NumberedFeatures {
  const ids = (o.byKeys ? undefined : occ.ids) ?? Uint32Array.from(occ.keys, (k) => numbering.get(k) ?? (numbering.set(k, numbering.size), numbering.size - 1));
  return new Numbered(occ.starts, occ.ends, distinctOccurrences(ids), inTextOrder(occ.starts, occ.ends));
}

/** NumberedFeatures as a class of its own, for the reason GrowingSpan gives. */
class Numbered implements NumberedFeatures {
  constructor(
    readonly starts: Uint32Array,
    readonly ends: Uint32Array,
    readonly set: DistinctOccurrences,
    readonly inOrder: boolean,
  ) {}
}

/** Whether occurrences are in order of (start, end). A loop alone (occurrence-sets.ts says why). */
function inTextOrder(starts: Uint32Array, ends: Uint32Array): boolean {
  for (let k = 1; k < starts.length; k++) {
    const d = (starts[k] as number) - (starts[k - 1] as number);
    if (d < 0 || (d === 0 && (ends[k] as number) < (ends[k - 1] as number))) return false;
  }
  return true;
}

/** |A ∩ B| / |A ∪ B| of two documents' features (0 for two without a feature). */
export function featureJaccard(x: NumberedFeatures, y: NumberedFeatures): number {
  return distinctJaccard(x.set, y.set);
}

/**
 * A span as mergedSpans grows it. A class, not an object literal: V8 gives the literals whose
 * first key is the same one field descriptor across the process, other modules' literals that
 * start with `start` (or `starts`) hold other types there, and the generalization threw
 * mergedSpans' compiled code away mid-run (docs/performance.md, the error step's deoptimizations).
 */
class GrowingSpan implements SharedSpan {
  occurrences = 1;

  constructor(
    readonly start: number,
    public end: number,
  ) {}
}

/** The occurrences of shared features (`shared[rank]` set) merged where they overlap or touch, in text order. */
function mergedSpans(f: NumberedFeatures, shared: Uint8Array): SharedSpan[] {
  const order: number[] = [];
  const rank = f.set.rank;
  for (let k = 0; k < rank.length; k++) if (shared[rank[k] as number] === 1) order.push(k);
  if (!f.inOrder) order.sort((i, j) => (f.starts[i] as number) - (f.starts[j] as number) || (f.ends[i] as number) - (f.ends[j] as number));
  const spans: SharedSpan[] = [];
  let cur: GrowingSpan | undefined;
  for (const i of order) {
    const s = f.starts[i] as number;
    const e = f.ends[i] as number;
    if (cur && s <= cur.end) {
      cur.end = Math.max(cur.end, e);
      cur.occurrences++;
    } else {
      if (cur) spans.push(cur);
      cur = new GrowingSpan(s, e);
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
  const both = sharedFeatures(na.set, nb.set);
  const union = na.set.distinct.length + nb.set.distinct.length - both.count;
  return {
    featuresA: na.set.distinct.length,
    featuresB: nb.set.distinct.length,
    shared: both.count,
    resemblance: union === 0 ? null : both.count / union,
    spansA: mergedSpans(na, both.x),
    spansB: mergedSpans(nb, both.y),
  };
}
