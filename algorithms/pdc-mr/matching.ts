/**
 * The arithmetic of PDC-MR's sequence matching (Zhang et al. 2010 §4.3), shared by the text jobs
 * and the kernel so that both decide alike, double for double; the set-similarity tests of the
 * sentence join are in `text/set-similarity.ts`.
 */

/** A near-duplicate sentence pair of two documents: sentence `a` of the first, `b` of the second. */
export interface SentencePair {
  readonly a: number;
  readonly b: number;
}

/** A diagonal of the duplicate matrix: sentences aStart.. of one document match bStart.. of the other. */
export interface Run {
  readonly aStart: number;
  readonly bStart: number;
  readonly length: number;
}

/**
 * Algorithm 2 (sequence matching): for each sentence pair still in P, taken in ascending (a, b)
 * order, DIAGONALEXTRACT follows (a+1, b+1), (a+2, b+2), … while they are in P; a diagonal of
 * at least γ pairs is a run and leaves P. The paper prints `|D| > γ`; its text calls γ "the
 * threshold of diagonal length" and evaluates γ = 1 against γ = 3, which only makes sense for
 * `|D| >= γ` (with `>`, γ = 1 would drop every single matching sentence).
 *
 * The ascending order makes the result the set of maximal diagonals of at least γ pairs (each
 * is reached first at its root, whose predecessor is not in P, and a shorter tail of a diagonal
 * cannot reach γ where the whole did not) and independent of the order the pairs arrive in, as
 * a reducer must be. So it is computed as such: pairs sorted by diagonal b − a, then by a, fall
 * into the maximal diagonals as stretches of consecutive a. Runs come out in ascending
 * (aStart, bStart). A pair given twice counts once.
 */
export function diagonalRuns(pairs: readonly SentencePair[], gamma: number): Run[] {
  return diagonalRunsOf(
    pairs.map((p) => p.a),
    pairs.map((p) => p.b),
    pairs.length,
    gamma,
  );
}

/** `diagonalRuns` over the first `n` pairs (a[i], b[i]) of two arrays (the kernel's form). */
export function diagonalRunsOf(a: ArrayLike<number>, b: ArrayLike<number>, n: number, gamma: number): Run[] {
  if (n < gamma) return [];
  const order = Array.from({ length: n }, (_, i) => i);
  const diag = (i: number): number => (b[i] as number) - (a[i] as number);
  order.sort((x, y) => diag(x) - diag(y) || (a[x] as number) - (a[y] as number));
  const runs: Run[] = [];
  let k = 0;
  while (k < n) {
    const first = order[k] as number;
    const d = diag(first);
    let last = a[first] as number;
    let length = 1;
    for (k++; k < n; k++) {
      const i = order[k] as number;
      if (diag(i) !== d) break;
      const ai = a[i] as number;
      if (ai === last) continue;
      if (ai !== last + 1) break;
      last = ai;
      length++;
    }
    if (length >= gamma) runs.push({ aStart: a[first] as number, bStart: b[first] as number, length });
  }
  return runs.sort((x, y) => x.aStart - y.aStart || x.bStart - y.bStart);
}

/**
 * The pair's score: the share of the shorter document's sentences (fewer sentences) that its
 * runs cover; for documents of equal length the larger of the two shares. A sentence covered by
 * two runs (a sentence repeated in the other document) counts once.
 */
export function coverageScore(runs: readonly Run[], sentencesA: number, sentencesB: number): number {
  const coveredA = new Set<number>();
  const coveredB = new Set<number>();
  for (const r of runs) {
    for (let k = 0; k < r.length; k++) {
      coveredA.add(r.aStart + k);
      coveredB.add(r.bStart + k);
    }
  }
  const shareA = coveredA.size / sentencesA;
  const shareB = coveredB.size / sentencesB;
  if (sentencesA < sentencesB) return shareA;
  if (sentencesB < sentencesA) return shareB;
  return Math.max(shareA, shareB);
}
