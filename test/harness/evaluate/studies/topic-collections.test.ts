import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ReadContext } from '../../../../harness/corpus/types.ts';
import { indexPairs } from '../../../../harness/evaluate/studies/pair-index.ts';
import {
  collectTopics,
  topicCollectionRows,
  topicCollectionsCsv,
} from '../../../../harness/evaluate/studies/topic-collections.ts';
import { readRun, type Run } from '../../../../harness/trec/run.ts';
import { ids, indexOf, truth } from './pairs.ts';

const runsDir = new URL('../../../fixtures/studies/runs/', import.meta.url);
const noSkips: ReadContext = {
  skip(s) {
    throw new Error(s.detail);
  },
};

async function runs(): Promise<Run[]> {
  return Promise.all(['first.run', 'second.run'].map((f) => readRun(fileURLToPath(new URL(f, runsDir)), noSkips)));
}

const names = (docs: readonly number[]) => docs.map((d) => ids[d]).sort();

// first.run:  topic 1: A 3, B 2, X 1      topic 2: C 5, D 4
// second.run: topic 1: G 9, E 8, A 1      topic 2: F 1        topic 3: X 1
// X is not in the corpus. Pairs (pairs.ts): A-B .9, C-D .5, E-F .49, A-G .6, B-H .3.
describe('collectTopics', () => {
  it('unites the top documents of every run per topic and counts the missing', async () => {
    const topics = collectTopics(await runs(), 2, indexOf);
    // depth 2: topic 1 = {A, B} ∪ {G, E}; X (rank 3 of first.run) is beyond the depth
    expect(topics.map((t) => [t.topic, names(t.docs), t.missing])).toEqual([
      ['1', ['D-A', 'D-B', 'D-E', 'D-G'], 0],
      ['2', ['D-C', 'D-D', 'D-F'], 0],
      ['3', [], 1],
    ]);
  });

  it('takes every document when no depth is given', async () => {
    const topics = collectTopics(await runs(), undefined, indexOf);
    // A is listed by both runs for topic 1 and counts once; X is now in reach and missing
    expect(topics.map((t) => [t.topic, names(t.docs), t.missing])).toEqual([
      ['1', ['D-A', 'D-B', 'D-E', 'D-G'], 1],
      ['2', ['D-C', 'D-D', 'D-F'], 0],
      ['3', [], 1],
    ]);
  });
});

describe('topic collection table, by hand', () => {
  it('gives per topic the percentage with a near-duplicate inside the topic, and the average', async () => {
    const thresholds = [0.9, 0.5, 0.3];
    const topics = collectTopics(await runs(), 2, indexOf);
    const rows = topicCollectionRows(indexPairs(truth, ids.length), topics, thresholds);
    // Topic 1 {A, B, E, G}: best inside: A .9 (B), B .9 (A), G .6 (A), E none (F is in topic 2).
    //   ≥.9: A, B = 2/4 = 50%; ≥.5: A, B, G = 75%; ≥.3: the same 75% (B-H: H not in topic).
    // Topic 2 {C, D, F}: C-D .5; F none (E is in topic 1). ≥.9: 0%; ≥.5 and ≥.3: 2/3.
    // Topic 3: no corpus document, X missing → empty cells.
    expect(rows).toEqual([
      { topic: '1', documents: 4, missing: 0, percent: [50, 75, 75] },
      { topic: '2', documents: 3, missing: 0, percent: [0, (100 * 2) / 3, (100 * 2) / 3] },
      { topic: '3', documents: 0, missing: 1, percent: [null, null, null] },
    ]);
    const records = parse(topicCollectionsCsv(rows, thresholds)) as string[][];
    expect(records[0]).toEqual(['topic', 'documents', 'missing', 'rr>=0.9', 'rr>=0.5', 'rr>=0.3']);
    expect(records[3]).toEqual(['3', '0', '1', '', '', '']);
    // average: documents (4 + 3 + 0) / 3 and missing 1/3 over all topics; the percentages
    // over topics 1 and 2 only: (50 + 0) / 2 = 25 and (75 + 66.67) / 2 = 70.83
    const average = records[4]!;
    expect(average[0]).toBe('average');
    expect(Number(average[1])).toBeCloseTo(7 / 3, 12);
    expect(Number(average[2])).toBeCloseTo(1 / 3, 12);
    expect(Number(average[3])).toBe(25);
    expect(Number(average[4])).toBeCloseTo(70.8333333333, 9);
    expect(Number(average[5])).toBeCloseTo(70.8333333333, 9);
  });
});
