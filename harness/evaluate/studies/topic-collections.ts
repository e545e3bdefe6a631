/**
 * Near-duplicates in topic collections (Nikkhoo 4.1.2, Figures 4.1-4.5): a topic's collection
 * is every document any run returned for the topic (to depth `top`); for each RR threshold t,
 * the percentage of its documents that form a ground-truth pair at RR ≥ t with another
 * document of the same collection. Documents the runs name but the corpus lacks are counted
 * as `missing` and take no part.
 */
import type { Run } from '../../trec/run.ts';
import type { Cell } from '../../csv.ts';
import { toCsv } from '../../csv.ts';
import { bestScoreWithin, type PairIndex } from './pair-index.ts';
import { compareTopics } from './topics.ts';

export interface TopicCollection {
  readonly topic: string;
  /** Distinct document indexes. */
  readonly docs: readonly number[];
  /** Distinct docnos the runs returned for the topic that are not in the corpus. */
  readonly missing: number;
}

export interface TopicCollectionRow {
  readonly topic: string;
  readonly documents: number;
  readonly missing: number;
  /** One per threshold; null when the collection has no document. */
  readonly percent: readonly (number | null)[];
}

/** The topic collections of `runs`, sorted by topic; `top` undefined takes every document. */
export function collectTopics(
  runs: readonly Run[],
  top: number | undefined,
  indexOf: ReadonlyMap<string, number>,
): TopicCollection[] {
  const byTopic = new Map<string, Set<string>>();
  for (const run of runs) {
    for (const [topic, list] of run) {
      let docnos = byTopic.get(topic);
      if (!docnos) byTopic.set(topic, (docnos = new Set()));
      for (const r of top === undefined ? list : list.slice(0, top)) docnos.add(r.docno);
    }
  }
  return [...byTopic.keys()].sort(compareTopics).map((topic) => {
    const docs: number[] = [];
    let missing = 0;
    for (const docno of byTopic.get(topic) ?? []) {
      const i = indexOf.get(docno);
      if (i === undefined) missing++;
      else docs.push(i);
    }
    return { topic, docs, missing };
  });
}

export function topicCollectionRows(
  index: PairIndex,
  collections: readonly TopicCollection[],
  thresholds: readonly number[],
): TopicCollectionRow[] {
  const scratch = new Uint8Array(index.nDocs);
  return collections.map(({ topic, docs, missing }) => {
    const best = bestScoreWithin(index, docs, scratch);
    const percent = thresholds.map((t) => {
      if (docs.length === 0) return null;
      let count = 0;
      for (const s of best) if (s >= t) count++;
      return (100 * count) / docs.length;
    });
    return { topic, documents: docs.length, missing, percent };
  });
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

/**
 * Figure 4.5: the mean over topics. `documents` and `missing` average every topic; the
 * percentages average the topics that have at least one document (the others have none).
 */
export function averageRow(rows: readonly TopicCollectionRow[], thresholds: readonly number[]): Cell[] {
  const withDocs = rows.filter((r) => r.documents > 0);
  return [
    'average',
    mean(rows.map((r) => r.documents)),
    mean(rows.map((r) => r.missing)),
    ...thresholds.map((_, i) => mean(withDocs.map((r) => r.percent[i] ?? 0))),
  ];
}

export function topicCollectionsCsv(rows: readonly TopicCollectionRow[], thresholds: readonly number[]): string {
  const header = ['topic', 'documents', 'missing', ...thresholds.map((t) => `rr>=${t}`)];
  const body: Cell[][] = rows.map((r) => [r.topic, r.documents, r.missing, ...r.percent]);
  return toCsv(header, [...body, averageRow(rows, thresholds)]);
}
