/**
 * Precision and recall of a run over slices of the collection, at several thresholds, from one
 * pass over its pairs (Ye et al. 2008, Figures 2 and 3): the whole collection and each
 * document-size group (size-groups.ts), at `evaluate.threshold` and at every
 * `evaluate.thresholds` value, without running anything again.
 *
 * Definitions as in compare.ts: Dup = {p : G(p) ≥ t}, Res = the run's decisions at t (its
 * pairs scoring ≥ t, or every pair it reports), precision = |Dup ∩ Res| / |Res|, recall =
 * |Dup ∩ Res| / |Dup|; for documents, the documents that belong to such pairs. In a group:
 * - pairs: those whose smaller document is in the group (`pairGroup`);
 * - documents: the group's own documents, each in Dup (Res) when some pair of it is, whichever
 *   group that pair is counted in.
 * The whole-collection slice at `evaluate.threshold` equals compare.ts's precision and recall.
 */
import type { PairList } from '../../contract/index.ts';
import { forEachAlignedPair } from './merge-pairs.ts';
import { pairGroup, type DocumentSizes } from './size-groups.ts';

/** What one slice holds at one threshold; measures are null when their denominator is empty. */
export interface SliceMeasures {
  /** documents in the slice */
  readonly docs: number;
  readonly dup_pairs: number;
  readonly res_pairs: number;
  readonly both_pairs: number;
  readonly precision_pairs: number | null;
  readonly recall_pairs: number | null;
  readonly dup_docs: number;
  readonly res_docs: number;
  readonly both_docs: number;
  readonly precision_docs: number | null;
  readonly recall_docs: number | null;
}

/** A variant's slices: the whole collection and every group, at each threshold. */
export interface VariantSlices {
  /** `evaluate.threshold` first, then `evaluate.thresholds` */
  readonly thresholds: readonly number[];
  /** the whole collection, per threshold */
  readonly all: readonly SliceMeasures[];
  /** per size group, per threshold */
  readonly groups: readonly (readonly SliceMeasures[])[];
}

export const SLICE_COUNTS = ['docs', 'dup_pairs', 'res_pairs', 'both_pairs', 'dup_docs', 'res_docs', 'both_docs'] as const;
export const SLICE_RATIOS = ['precision_pairs', 'recall_pairs', 'precision_docs', 'recall_docs'] as const;

const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);

export function sliceMeasures(c: Pick<SliceMeasures, (typeof SLICE_COUNTS)[number]>): SliceMeasures {
  return {
    ...c,
    precision_pairs: ratio(c.both_pairs, c.res_pairs),
    recall_pairs: ratio(c.both_pairs, c.dup_pairs),
    precision_docs: ratio(c.both_docs, c.res_docs),
    recall_docs: ratio(c.both_docs, c.dup_docs),
  };
}

/**
 * `truth` and `run` sorted by (a, b) without duplicates (sortPairs). `decisions` is the run's
 * rule (contract/plan.ts); thresholds must be in (0, 1].
 */
export function evaluateSlices(args: {
  readonly truth: PairList;
  readonly run: PairList;
  readonly sizes: DocumentSizes;
  readonly groups: number;
  readonly thresholds: readonly number[];
  readonly decisions: 'score-at-threshold' | 'every-reported-pair';
}): VariantSlices {
  const { sizes, thresholds } = args;
  const T = thresholds.length;
  const G = args.groups;
  const nDocs = sizes.words.length;
  const byDecision = args.decisions === 'every-reported-pair';
  // Pair counts per (slice, threshold), slice 0 the whole collection, 1 + g group g.
  const dup = new Float64Array((G + 1) * T);
  const res = new Float64Array((G + 1) * T);
  const both = new Float64Array((G + 1) * T);
  // A document is in Dup (Res) at t exactly when its best pair scores ≥ t.
  const bestG = new Float64Array(nDocs);
  const bestS = new Float64Array(nDocs).fill(-Infinity);
  const reported = new Uint8Array(nDocs);
  forEachAlignedPair(args.truth, args.run, (a, b, g, s, inRun) => {
    if (g > bestG[a]!) bestG[a] = g;
    if (g > bestG[b]!) bestG[b] = g;
    if (s > bestS[a]!) bestS[a] = s;
    if (s > bestS[b]!) bestS[b] = s;
    if (inRun) {
      reported[a] = 1;
      reported[b] = 1;
    }
    const k = (pairGroup(sizes, a, b) + 1) * T;
    for (let t = 0; t < T; t++) {
      const th = thresholds[t]!;
      const inDup = g >= th;
      const inRes = byDecision ? inRun : s >= th;
      if (inDup) {
        dup[t]!++;
        if (k > 0) dup[k + t]!++;
      }
      if (inRes) {
        res[t]!++;
        if (k > 0) res[k + t]!++;
      }
      if (inDup && inRes) {
        both[t]!++;
        if (k > 0) both[k + t]!++;
      }
    }
  });
  // Document counts per (slice, threshold), in one pass over the documents per threshold.
  const docs = new Float64Array((G + 1) * T);
  const dupDocs = new Float64Array((G + 1) * T);
  const resDocs = new Float64Array((G + 1) * T);
  const bothDocs = new Float64Array((G + 1) * T);
  const addDoc = (slot: number, inDup: boolean, inRes: boolean): void => {
    docs[slot]!++;
    if (inDup) dupDocs[slot]!++;
    if (inRes) resDocs[slot]!++;
    if (inDup && inRes) bothDocs[slot]!++;
  };
  for (let t = 0; t < T; t++) {
    const th = thresholds[t]!;
    for (let d = 0; d < nDocs; d++) {
      const k = (sizes.group[d]! + 1) * T;
      const inDup = bestG[d]! >= th;
      const inRes = byDecision ? reported[d] === 1 : bestS[d]! >= th;
      addDoc(t, inDup, inRes);
      if (k > 0) addDoc(k + t, inDup, inRes);
    }
  }
  const slice = (g: number, t: number): SliceMeasures => {
    const k = (g + 1) * T + t;
    return sliceMeasures({ docs: docs[k]!, dup_pairs: dup[k]!, res_pairs: res[k]!, both_pairs: both[k]!, dup_docs: dupDocs[k]!, res_docs: resDocs[k]!, both_docs: bothDocs[k]! });
  };
  return {
    thresholds: [...thresholds],
    all: thresholds.map((_, t) => slice(-1, t)),
    groups: Array.from({ length: G }, (_, g) => thresholds.map((__, t) => slice(g, t))),
  };
}
