/**
 * The ground truth's scores of a variant's pairs that it did not report. A ground truth with a
 * scorer (contract LocalKernel.scorer) reports only from the lowest score the measures read
 * (experiment/variant-run.ts truthFloor); a pair the variant reports at or above that score, or
 * any pair it reports when every reported pair is a decision, still needs the truth's exact
 * score however low (docs/design.md §8.2), and the scorer gives it. The list made here holds
 * what the measures read of the truth reporting every pair it scores above 0: `restrictToScores`
 * keeps the same pairs of either, so every measure is the same.
 *
 * The scorer is asked in pieces of LOOKUP_PIECE pairs, the interrupt checked between them: a
 * sampled variant on 300,000 documents can ask for millions, and one call held the main thread
 * for as long as they took.
 */
import type { PairList, PairScorer } from '../../contract/index.ts';

/**
 * `truth` with the truth's scores of the pairs of `run` it lacks that a measure reads (scoring
 * at least `floor` in `run`, or all of them with `allRun`), those above 0. Both lists sorted by
 * (a, b) without duplicates (sortPairs); so is the result.
 */
export async function withLookups(
  truth: PairList,
  run: PairList,
  o: { readonly floor: number; readonly allRun: boolean; readonly scorer: PairScorer; readonly signal?: AbortSignal; readonly piece?: number },
): Promise<PairList> {
  const missing = runPairsMissing(truth, run, o.floor, o.allRun);
  if (missing.length === 0) return truth;
  const a = new Uint32Array(missing.length);
  const b = new Uint32Array(missing.length);
  for (let k = 0; k < missing.length; k++) {
    a[k] = run.a[missing[k] as number] as number;
    b[k] = run.b[missing[k] as number] as number;
  }
  const scores = new Float64Array(missing.length);
  const piece = o.piece ?? LOOKUP_PIECE;
  for (let from = 0; from < a.length; from += piece) {
    o.signal?.throwIfAborted();
    const to = Math.min(a.length, from + piece);
    const got = await o.scorer(a.subarray(from, to), b.subarray(from, to));
    if (got.length !== to - from) throw new Error(`the ground truth's scorer gave ${got.length} scores for ${to - from} pairs`);
    scores.set(got, from);
  }
  o.signal?.throwIfAborted();
  let found = 0;
  for (const s of scores) if (s > 0) found++;
  if (found === 0) return truth;
  return mergeDisjoint(truth, { a, b, score: scores }, found);
}

/** Pairs a scorer is asked for at once: about a second of the scorer's work on two threads, a few MB to hand over. */
export const LOOKUP_PIECE = 1 << 18;

/** Indexes into `run` of its pairs scoring at least `floor` (every pair with `allRun`) that `truth` does not have. */
function runPairsMissing(truth: PairList, run: PairList, floor: number, allRun: boolean): Uint32Array {
  const out: number[] = [];
  let i = 0;
  const nt = truth.a.length;
  for (let j = 0; j < run.a.length; j++) {
    if (!allRun && !((run.score[j] as number) >= floor)) continue;
    const ra = run.a[j] as number;
    const rb = run.b[j] as number;
    while (i < nt && ((truth.a[i] as number) < ra || ((truth.a[i] as number) === ra && (truth.b[i] as number) < rb))) i++;
    if (i < nt && truth.a[i] === ra && truth.b[i] === rb) continue;
    out.push(j);
  }
  return Uint32Array.from(out);
}

/** The union of `truth` and the pairs of `extra` scoring above 0 (`found` of them), sorted by (a, b). */
function mergeDisjoint(truth: PairList, extra: PairList, found: number): PairList {
  const n = truth.a.length + found;
  const out = { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
  let i = 0;
  let j = 0;
  let w = 0;
  const ne = extra.a.length;
  const put = (l: PairList, k: number): void => {
    out.a[w] = l.a[k] as number;
    out.b[w] = l.b[k] as number;
    out.score[w++] = l.score[k] as number;
  };
  while (i < truth.a.length || j < ne) {
    if (j < ne && !((extra.score[j] as number) > 0)) {
      j++;
      continue;
    }
    const takeTruth = j === ne || (i < truth.a.length && ((truth.a[i] as number) < (extra.a[j] as number) || (truth.a[i] === extra.a[j] && (truth.b[i] as number) < (extra.b[j] as number))));
    if (takeTruth) put(truth, i++);
    else put(extra, j++);
  }
  return out;
}
