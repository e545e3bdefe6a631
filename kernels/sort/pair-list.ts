/**
 * Pair lists (parallel columns a, b and a score) ordered by (a, b): packed into records of the
 * two indexes and the score's two words, so that a pass moves each pair in one sequential write.
 */
import { sortRecords } from './records.ts';

export interface PairColumns {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
}

/** The pairs stably sorted by (a, b), in new arrays. */
export function sortPairColumns(pairs: PairColumns): PairColumns {
  const n = pairs.a.length;
  const records = new Uint32Array(n * 4);
  const scores = new Float64Array(records.buffer);
  for (let i = 0; i < n; i++) {
    records[4 * i] = pairs.a[i] as number;
    records[4 * i + 1] = pairs.b[i] as number;
    scores[2 * i + 1] = pairs.score[i] as number;
  }
  const sorted = sortRecords(records, { width: 4, keyWords: 2 }).records;
  const sortedScores = new Float64Array(sorted.buffer, sorted.byteOffset, 2 * n);
  const out = { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    out.a[i] = sorted[4 * i] as number;
    out.b[i] = sorted[4 * i + 1] as number;
    out.score[i] = sortedScores[2 * i + 1] as number;
  }
  return out;
}
