/**
 * The hand-made ground truth shared by the study tests. Documents by index:
 *   0 D-A  1 D-B  2 D-C  3 D-D  4 D-E  5 D-F  6 D-G  7 D-H  8 D-Z
 * Pairs (RR): A-B 0.9, C-D 0.5 (exactly the threshold), E-F 0.49 (just below), A-G 0.6,
 * B-H 0.3. D-X and D-Y appear in runs but not in the corpus.
 */
import type { PairList } from '../../../../contract/index.ts';

export const ids = ['D-A', 'D-B', 'D-C', 'D-D', 'D-E', 'D-F', 'D-G', 'D-H', 'D-Z'];

export function pairList(list: readonly (readonly [number, number, number])[]): PairList {
  return {
    a: Uint32Array.from(list.map((p) => p[0])),
    b: Uint32Array.from(list.map((p) => p[1])),
    score: Float64Array.from(list.map((p) => p[2])),
  };
}

export const truth = pairList([
  [0, 1, 0.9],
  [2, 3, 0.5],
  [4, 5, 0.49],
  [0, 6, 0.6],
  [1, 7, 0.3],
]);

export const indexOf = new Map(ids.map((id, i) => [id, i]));
