/**
 * Near-duplicates in run-topics (Nikkhoo 4.1.3): for each run, topic and depth n, the top n
 * documents in trec_eval order (score descending, docno descending; `harness/trec/run.ts`),
 * and how many of them form a ground-truth pair at RR ≥ threshold with another document of
 * the same top n. A document the corpus lacks still takes its rank (the top n are the run's
 * top n ranks) but is counted as `missing` and is neither a document nor a near-duplicate.
 */
import type { Cell } from '../../csv.ts';
import { toCsv } from '../../csv.ts';
import type { Run } from '../../trec/run.ts';
import { firstPartnerRanks, type PairIndex } from './pair-index.ts';
import { byteOrder, compareTopics } from './topics.ts';

export interface RunTopicShare {
  readonly run: string;
  readonly topic: string;
  readonly n: number;
  /** Documents of the top n that are in the corpus (fewer than n when the run returned fewer or some are missing). */
  readonly documents: number;
  readonly missing: number;
  readonly withNearDuplicate: number;
}

/** The run's rows, by topic then n ascending; `ns` need not be sorted. */
export function runTopicShares(
  index: PairIndex,
  label: string,
  run: Run,
  indexOf: ReadonlyMap<string, number>,
  ns: readonly number[],
  threshold: number,
): RunTopicShare[] {
  const depths = [...ns].sort((x, y) => x - y);
  const deepest = depths[depths.length - 1] ?? 0;
  const rankOf = new Int32Array(index.nDocs).fill(-1);
  const rows: RunTopicShare[] = [];
  for (const topic of [...run.keys()].sort(compareTopics)) {
    const ranked = (run.get(topic) ?? []).slice(0, deepest).map((r) => indexOf.get(r.docno) ?? -1);
    const partner = firstPartnerRanks(index, ranked, threshold, rankOf);
    for (const n of depths) {
      let documents = 0;
      let missing = 0;
      let withNearDuplicate = 0;
      for (let r = 0; r < Math.min(n, ranked.length); r++) {
        if (ranked[r]! < 0) missing++;
        else {
          documents++;
          if (partner[r]! < n) withNearDuplicate++;
        }
      }
      rows.push({ run: label, topic, n, documents, missing, withNearDuplicate });
    }
  }
  return rows;
}

/** The share of a run-topic's documents that have a near-duplicate; null without documents. */
export function share(row: RunTopicShare): number | null {
  return row.documents === 0 ? null : row.withNearDuplicate / row.documents;
}

/** Rows by run (byte order), topic, n; the input order does not matter. */
export function sortShares(rows: readonly RunTopicShare[]): RunTopicShare[] {
  return [...rows].sort((x, y) => byteOrder(x.run, y.run) || compareTopics(x.topic, y.topic) || x.n - y.n);
}

export function runTopicSharesCsv(rows: readonly RunTopicShare[]): string {
  const header = ['run', 'topic', 'n', 'documents', 'missing', 'with_near_duplicate', 'share'];
  const body: Cell[][] = sortShares(rows).map((r) => [r.run, r.topic, r.n, r.documents, r.missing, r.withNearDuplicate, share(r)]);
  return toCsv(header, body);
}
