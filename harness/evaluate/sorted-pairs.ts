/**
 * Puts a PairList in (a, b) order so that two lists can be merged in one linear walk.
 *
 * Lists hold millions of pairs, so this avoids string keys and comparator sorts: an LSD radix
 * sort over the document indexes (b first, then a), O(n) per pass, one pass per index for up
 * to 2^16 documents, two up to 2^32.
 */
import type { PairList } from '../../contract/index.ts';

const MAX_DIGIT_BITS = 16;

/**
 * Returns `pairs` sorted by (a, b), after checking that every pair is a < b < nDocs with a
 * finite score and that no pair occurs twice. These are invariants of the pipeline (readers
 * validate files), so a violation is a bug and throws a plain Error naming `label`.
 */
export function sortPairs(pairs: PairList, nDocs: number, label: string): PairList {
  const known = checked.get(pairs);
  if (known && known.nDocs === nDocs) return known.sorted;
  checkPairs(pairs, nDocs, label);
  const sorted = isStrictlySorted(pairs) ? pairs : radixSorted(pairs, nDocs);
  checkNoDuplicates(sorted, label);
  checked.set(pairs, { nDocs, sorted });
  checked.set(sorted, { nDocs, sorted });
  return sorted;
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

/**
 * Stable LSD passes, b's digits then a's, each moving whole records so that every pass reads
 * its input sequentially (gathering through a permutation is several times slower: cache misses).
 */
function radixSorted(pairs: PairList, nDocs: number): PairList {
  const n = pairs.a.length;
  const indexBits = Math.max(1, Math.ceil(Math.log2(Math.max(2, nDocs))));
  const passesPerIndex = Math.ceil(indexBits / MAX_DIGIT_BITS);
  const digitBits = Math.ceil(indexBits / passesPerIndex);
  let from: PairList = pairs;
  let to = { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
  let spare = { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
  const counts = new Uint32Array((1 << digitBits) + 1);
  for (const column of ['b', 'a'] as const) {
    for (let shift = 0; shift < indexBits; shift += digitBits) {
      countingPass(from, from[column], shift, digitBits, to, counts);
      from = to;
      [to, spare] = [spare, to];
    }
  }
  return from;
}

function countingPass(
  from: PairList,
  digits: Uint32Array,
  shift: number,
  digitBits: number,
  to: { a: Uint32Array; b: Uint32Array; score: Float64Array },
  counts: Uint32Array,
): void {
  const mask = (1 << digitBits) - 1;
  const n = digits.length;
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[((digits[i]! >>> shift) & mask) + 1]!++;
  for (let d = 1; d < counts.length; d++) counts[d]! += counts[d - 1]!;
  const { a, b, score } = from;
  for (let i = 0; i < n; i++) {
    const k = counts[(digits[i]! >>> shift) & mask]!++;
    to.a[k] = a[i]!;
    to.b[k] = b[i]!;
    to.score[k] = score[i]!;
  }
}
