/**
 * Walks the union of two pair lists sorted by (a, b), giving each pair both its scores; a pair
 * missing from one list scores 0 there (DESIGN.md: a pair a run does not report scores 0).
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
