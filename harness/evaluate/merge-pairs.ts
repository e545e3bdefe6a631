/**
 * Walks the union of two pair lists sorted by (a, b), giving each pair both its scores; a pair
 * missing from one list scores 0 there (docs/design.md §8.2: a pair a run does not report scores 0).
 */
import type { PairList } from '../../contract/index.ts';

/** `inRight`: whether the right list has the pair (a detector may report a pair with score 0). */
export type AlignedPairVisitor = (a: number, b: number, left: number, right: number, inRight: boolean) => void;

/** Both lists must be sorted by (a, b) without duplicates (see `sortPairs`). */
export function forEachAlignedPair(left: PairList, right: PairList, visit: AlignedPairVisitor): void {
  const nl = left.a.length;
  const nr = right.a.length;
  let i = 0;
  let j = 0;
  while (i < nl && j < nr) {
    const la = left.a[i]!;
    const ra = right.a[j]!;
    const order = la !== ra ? la - ra : left.b[i]! - right.b[j]!;
    if (order < 0) {
      visit(la, left.b[i]!, left.score[i]!, 0, false);
      i++;
    } else if (order > 0) {
      visit(ra, right.b[j]!, 0, right.score[j]!, true);
      j++;
    } else {
      visit(la, left.b[i]!, left.score[i]!, right.score[j]!, true);
      i++;
      j++;
    }
  }
  for (; i < nl; i++) visit(left.a[i]!, left.b[i]!, left.score[i]!, 0, false);
  for (; j < nr; j++) visit(right.a[j]!, right.b[j]!, 0, right.score[j]!, true);
}

/**
 * The pairs that score at least `floor` in either list, each list keeping its own pairs among
 * them with their scores; with `allRight`, every pair of the right list stays too. Every
 * measure looks at pairs from its threshold up, and at both scores of such a pair, so it gives
 * the same on the restricted lists as on the whole ones; a join reports every pair sharing a
 * shingle, most of them far below any threshold, and the restricted lists are a tenth as long.
 * Both lists sorted by (a, b) without duplicates; so are the results.
 */
export function restrictToScores(left: PairList, right: PairList, floor: number, allRight: boolean): { left: PairList; right: PairList } {
  const nl = left.a.length;
  const nr = right.a.length;
  // A kept pair scores >= floor in one list at least (or is a right pair under allRight), so these bound the union.
  let capacity = allRight ? nr : 0;
  for (let i = 0; i < nl; i++) if (left.score[i]! >= floor) capacity++;
  if (!allRight) for (let j = 0; j < nr; j++) if (right.score[j]! >= floor) capacity++;
  const out = { l: newList(Math.min(capacity, nl)), r: newList(Math.min(capacity, nr)) };
  let nlOut = 0;
  let nrOut = 0;
  let i = 0;
  let j = 0;
  while (i < nl || j < nr) {
    const order = i === nl ? 1 : j === nr ? -1 : left.a[i]! !== right.a[j]! ? left.a[i]! - right.a[j]! : left.b[i]! - right.b[j]!;
    const g = order <= 0 ? left.score[i]! : 0;
    const s = order >= 0 ? right.score[j]! : 0;
    if (g >= floor || s >= floor || (allRight && order >= 0)) {
      if (order <= 0) {
        out.l.a[nlOut] = left.a[i]!;
        out.l.b[nlOut] = left.b[i]!;
        out.l.score[nlOut++] = g;
      }
      if (order >= 0) {
        out.r.a[nrOut] = right.a[j]!;
        out.r.b[nrOut] = right.b[j]!;
        out.r.score[nrOut++] = s;
      }
    }
    if (order <= 0) i++;
    if (order >= 0) j++;
  }
  return { left: sliceList(out.l, nlOut), right: sliceList(out.r, nrOut) };
}

function newList(n: number): { a: Uint32Array; b: Uint32Array; score: Float64Array } {
  return { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
}

function sliceList(p: { a: Uint32Array; b: Uint32Array; score: Float64Array }, n: number): PairList {
  return { a: p.a.subarray(0, n), b: p.b.subarray(0, n), score: p.score.subarray(0, n) };
}
