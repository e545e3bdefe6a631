/**
 * Near-duplicate lookups by document. A run-topic's top 500 holds 124,750 candidate pairs and
 * a topic collection tens of thousands of documents, so the studies never scan the pair list
 * per question: the ground-truth pairs are indexed once by document (compressed adjacency
 * lists), and a question about a set of documents walks only the neighbours of its members.
 */
import type { PairList } from '../../../contract/index.ts';
import { checkPairs } from '../sorted-pairs.ts';

/** Document d's neighbours are `other[start[d] .. start[d+1])`, with the pair's score in `score`. */
export interface PairIndex {
  readonly nDocs: number;
  readonly start: Uint32Array;
  readonly other: Uint32Array;
  readonly score: Float64Array;
}

export function indexPairs(pairs: PairList, nDocs: number): PairIndex {
  checkPairs(pairs, nDocs, 'studies: ground truth');
  const { a, b, score } = pairs;
  const start = new Uint32Array(nDocs + 1);
  for (let i = 0; i < a.length; i++) {
    start[a[i]! + 1]!++;
    start[b[i]! + 1]!++;
  }
  for (let d = 0; d < nDocs; d++) start[d + 1]! += start[d]!;
  const fill = start.slice(0, nDocs);
  const other = new Uint32Array(2 * a.length);
  const scores = new Float64Array(2 * a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const s = score[i]!;
    const ix = fill[x]!++;
    other[ix] = y;
    scores[ix] = s;
    const iy = fill[y]!++;
    other[iy] = x;
    scores[iy] = s;
  }
  return { nDocs, start, other, score: scores };
}

/**
 * For each member (distinct document indexes), the best score it has with another member;
 * -Infinity when it has none. `scratch` is a zeroed Uint8Array of nDocs, left zeroed.
 */
export function bestScoreWithin(index: PairIndex, members: readonly number[], scratch: Uint8Array): Float64Array {
  for (const d of members) scratch[d] = 1;
  const best = new Float64Array(members.length).fill(-Infinity);
  members.forEach((d, i) => {
    let top = -Infinity;
    for (let k = index.start[d]!, end = index.start[d + 1]!; k < end; k++) {
      if (scratch[index.other[k]!] === 1 && index.score[k]! > top) top = index.score[k]!;
    }
    best[i] = top;
  });
  for (const d of members) scratch[d] = 0;
  return best;
}

/**
 * For a ranked list (document index by rank, -1 for a document not in the corpus), each
 * rank's first partner: the best (lowest) rank of another listed document it forms a pair
 * with at RR ≥ threshold; Infinity when none. A document has a near-duplicate elsewhere in
 * the top n exactly when its rank and its partner's are both below n, so one walk serves
 * every n. `rankOf` is an Int32Array of nDocs filled with -1, left so.
 */
export function firstPartnerRanks(
  index: PairIndex,
  ranked: readonly number[],
  threshold: number,
  rankOf: Int32Array,
): Float64Array {
  ranked.forEach((d, r) => {
    if (d >= 0) rankOf[d] = r;
  });
  const partner = new Float64Array(ranked.length).fill(Infinity);
  ranked.forEach((d, r) => {
    if (d < 0) return;
    let first = Infinity;
    for (let k = index.start[d]!, end = index.start[d + 1]!; k < end; k++) {
      const rank = rankOf[index.other[k]!]!;
      if (rank >= 0 && rank < first && index.score[k]! >= threshold) first = rank;
    }
    partner[r] = first;
  });
  for (const d of ranked) if (d >= 0) rankOf[d] = -1;
  return partner;
}
