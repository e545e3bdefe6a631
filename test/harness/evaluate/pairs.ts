/** Test helpers: building PairLists from literals and random data. */
import type { PairList } from '../../../contract/index.ts';

export function pairList(rows: readonly (readonly [number, number, number])[]): PairList {
  return {
    a: Uint32Array.from(rows, (r) => r[0]),
    b: Uint32Array.from(rows, (r) => r[1]),
    score: Float64Array.from(rows, (r) => r[2]),
  };
}

export function rows(list: PairList): [number, number, number][] {
  return Array.from(list.a, (a, i) => [a, list.b[i]!, list.score[i]!]);
}

/** mulberry32, the corpus builders' own seeded generator: failures reproduce. */
export { generator as seededRandom } from '../../../harness/synth/random.ts';

/** `n` distinct random pairs over `nDocs` documents, in random order, scores from `score()`. */
export function randomPairs(n: number, nDocs: number, random: () => number, score: () => number): PairList {
  const seen = new Set<number>();
  const out: [number, number, number][] = [];
  while (out.length < n) {
    const x = Math.floor(random() * nDocs);
    const y = Math.floor(random() * nDocs);
    if (x === y) continue;
    const [a, b] = x < y ? [x, y] : [y, x];
    if (seen.has(a * nDocs + b)) continue;
    seen.add(a * nDocs + b);
    out.push([a, b, score()]);
  }
  return pairList(out);
}
