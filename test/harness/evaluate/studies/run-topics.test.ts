import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ReadContext } from '../../../../harness/corpus/types.ts';
import { indexPairs } from '../../../../harness/evaluate/studies/pair-index.ts';
import {
  runTopicShares,
  runTopicSharesCsv,
  share,
  type RunTopicShare,
} from '../../../../harness/evaluate/studies/run-topics.ts';
import { readRun } from '../../../../harness/trec/run.ts';
import { ids, indexOf, truth } from './pairs.ts';

const handRun = fileURLToPath(new URL('../../../fixtures/studies/hand.run', import.meta.url));
const noSkips: ReadContext = {
  skip(s) {
    throw new Error(s.detail);
  },
};

async function shares(threshold = 0.5, ns = [8, 2, 5, 3]): Promise<RunTopicShare[]> {
  const run = await readRun(handRun, noSkips);
  return runTopicShares(indexPairs(truth, ids.length), 'hand.run', run, indexOf, ns, threshold);
}

const row = (topic: string, n: number, documents: number, missing: number, withNearDuplicate: number): RunTopicShare => ({
  run: 'hand.run',
  topic,
  n,
  documents,
  missing,
  withNearDuplicate,
});

describe('runTopicShares, by hand on test/fixtures/studies/hand.run', () => {
  // Topic 1 in trec_eval order (score desc, then docno desc; the rank column is ignored):
  //   rank 0 D-A 10 | 1 D-Z 9 | 2 D-B 9 | 3 D-C 7 | 4 D-X 6.5 | 5 D-D 6 | 6 D-G 5 | 7 D-H 4
  // D-Z and D-B tie at 9: D-Z > D-B, so D-Z takes rank 1 and D-B falls out of the top 2.
  // D-X is not in the corpus. Pairs (pairs.ts): A-B .9, C-D .5, E-F .49, A-G .6, B-H .3.
  it('topic 1: the tie keeps D-B out of the top 2, so the top 2 has no near-duplicate', async () => {
    const rows = (await shares()).filter((r) => r.topic === '1');
    expect(rows).toEqual([
      // top 2 = A, Z: A's partners B (rank 2) and G (rank 6) are outside → 0 of 2
      row('1', 2, 2, 0, 0),
      // top 3 = A, Z, B: A-B .9 → A and B → 2 of 3
      row('1', 3, 3, 0, 2),
      // top 5 = A, Z, B, C, X: X missing; C's partner D is rank 5 → still A, B → 2 of 4
      row('1', 5, 4, 1, 2),
      // top 8: A(B,G) B(A) C(D at exactly .5) D(C) G(A) → 5 of 7; H-B .3 and Z count no
      row('1', 8, 7, 1, 5),
    ]);
    expect(rows.map(share)).toEqual([0, 2 / 3, 2 / 4, 5 / 7]);
  });

  it('topic 2: two documents that are near-duplicates, and a missing third', async () => {
    // G (1.0) and A (1.0) tie, G first; Y (0.5) is not in the corpus. A-G .6 ≥ .5.
    const rows = (await shares()).filter((r) => r.topic === '2');
    expect(rows).toEqual([row('2', 2, 2, 0, 2), row('2', 3, 2, 1, 2), row('2', 5, 2, 1, 2), row('2', 8, 2, 1, 2)]);
  });

  it('topic 10: a pair just below the threshold is no near-duplicate; fewer documents than n', async () => {
    // E-F .49 < .5; the run has only two documents for topic 10.
    const rows = (await shares()).filter((r) => r.topic === '10');
    expect(rows).toEqual([row('10', 2, 2, 0, 0), row('10', 3, 2, 0, 0), row('10', 5, 2, 0, 0), row('10', 8, 2, 0, 0)]);
  });

  it('a lower threshold turns the 0.49 pair into near-duplicates', async () => {
    const rows = (await shares(0.49, [2])).filter((r) => r.topic === '10');
    expect(rows).toEqual([row('10', 2, 2, 0, 2)]);
  });

  it('a share is empty when the top n has no corpus document', () => {
    expect(share(row('9', 3, 0, 3, 0))).toBeNull();
  });
});

describe('runTopicSharesCsv', () => {
  it('sorts rows by run, topic as a number, then n', async () => {
    const rows = await shares(0.5, [3]);
    const other: RunTopicShare = { ...row('1', 3, 1, 0, 0), run: 'a.run' };
    const csv = runTopicSharesCsv([...rows].reverse().concat(other));
    const records = parse(csv) as string[][];
    expect(records[0]).toEqual(['run', 'topic', 'n', 'documents', 'missing', 'with_near_duplicate', 'share']);
    expect(records.slice(1).map((r) => `${r[0]}:${r[1]}`)).toEqual(['a.run:1', 'hand.run:1', 'hand.run:2', 'hand.run:10']);
    // topic 1 at n = 3 by hand above: 2 of 3
    expect(records[2]).toEqual(['hand.run', '1', '3', '3', '0', '2', String(2 / 3)]);
  });

  it('writes an empty share cell for a run-topic without documents', () => {
    const records = parse(runTopicSharesCsv([row('4', 10, 0, 10, 0)])) as string[][];
    expect(records[1]).toEqual(['hand.run', '4', '10', '0', '10', '0', '']);
  });
});
