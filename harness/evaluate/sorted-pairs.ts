/**
 * Puts a PairList in (a, b) order so that two lists can be merged in one linear walk.
 *
 * Lists hold millions of pairs, so this avoids string keys and comparator sorts: a radix sort
 * over the document indexes (kernels/sort/pair-list.ts), O(n) per pass, one pass per index for
 * up to 2^16 documents, two up to 2^32.
 */
import type { PairList } from '../../contract/index.ts';
import { sortPairColumns } from '../../kernels/sort/pair-list.ts';

/**
 * Returns `pairs` sorted by (a, b), after checking that every pair is a < b < nDocs with a
 * finite score and that no pair occurs twice. These are invariants of the pipeline (readers
 * validate files), so a violation is a bug and throws a plain Error naming `label`.
 */
export function sortPairs(pairs: PairList, nDocs: number, label: string): PairList {
  const known = checked.get(pairs);
  if (known && known.nDocs === nDocs) return known.sorted;
  checkPairs(pairs, nDocs, label);
  const sorted = isStrictlySorted(pairs) ? pairs : sortPairColumns(pairs);
  checkNoDuplicates(sorted, label);
  checked.set(pairs, { nDocs, sorted });
  checked.set(sorted, { nDocs, sorted });
  return sorted;
}

/**
 * Records `part` as checked and sorted without walking it: every pair of it is a pair of
 * `whole`, in the same order, and `whole` came from sortPairs over `nDocs` documents (a list
 * restricted to some of its pairs, merge-pairs.ts restrictToScores). A later sortPairs of `part`
 * (a run's error sample looks for errors among the pairs the evaluation compared) then costs
 * nothing instead of three passes over up to a few hundred thousand pairs.
 */
export function sortedPartOf(part: PairList, whole: PairList, nDocs: number): void {
  const known = checked.get(whole);
  if (known === undefined || known.nDocs !== nDocs || known.sorted !== whole) throw new Error('sortedPartOf: the whole list was not sorted by sortPairs');
  checked.set(part, { nDocs, sorted: part });
}

/**
 * Lists already checked and sorted, by the list given: the ground truth is compared with every
 * variant, and each variant's list passes through the comparison and the slices. Pair lists
 * are not written to once made.
 */
const checked = new WeakMap<PairList, { readonly nDocs: number; readonly sorted: PairList }>();

/** Throws unless every pair of `pairs` is a < b < nDocs with a finite score. */
export function checkPairs(pairs: PairList, nDocs: number, label: string): void {
  const { a, b, score } = pairs;
  if (b.length !== a.length || score.length !== a.length) {
    throw new Error(`${label}: pair arrays differ in length (a ${a.length}, b ${b.length}, score ${score.length})`);
  }
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!;
    const bi = b[i]!;
    if (!(ai < bi && bi < nDocs)) {
      throw new Error(`${label}: pair ${i} is (${ai}, ${bi}); need a < b < ${nDocs} documents`);
    }
    if (!Number.isFinite(score[i]!)) {
      throw new Error(`${label}: pair (${ai}, ${bi}) has score ${score[i]}`);
    }
  }
}

function isStrictlySorted({ a, b }: PairList): boolean {
  for (let i = 1; i < a.length; i++) {
    const da = a[i]! - a[i - 1]!;
    if (da < 0 || (da === 0 && b[i]! <= b[i - 1]!)) return false;
  }
  return true;
}

function checkNoDuplicates({ a, b }: PairList, label: string): void {
  for (let i = 1; i < a.length; i++) {
    if (a[i] === a[i - 1] && b[i] === b[i - 1]) {
      throw new Error(`${label}: pair (${a[i]}, ${b[i]}) occurs more than once`);
    }
  }
}
