import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { prevalence, prevalenceCsv } from '../../../../harness/evaluate/studies/prevalence.ts';
import type { RunTopicShare } from '../../../../harness/evaluate/studies/run-topics.ts';

const rt = (topic: string, n: number, documents: number, withNearDuplicate: number): RunTopicShare => ({
  run: 'r',
  topic,
  n,
  documents,
  missing: 0,
  withNearDuplicate,
});

// Hand-made shares:
//   n = 10: 0/10 = 0, 2/10 = .2, 5/10 = .5, and one run-topic without documents (not counted)
//   n = 20: 1/20 = .05, 2/20 = .1, 20/20 = 1
const rows = [
  rt('1', 10, 10, 0),
  rt('2', 10, 10, 2),
  rt('3', 10, 10, 5),
  rt('4', 10, 0, 0),
  rt('1', 20, 20, 1),
  rt('2', 20, 20, 2),
  rt('3', 20, 20, 20),
];

describe('prevalence (Table 4.1 shape)', () => {
  it('gives the percentage of run-topics whose share is at least each threshold', () => {
    // given unsorted: rows and columns come out ascending; n = 50 has no run-topic → null
    const table = prevalence(rows, [50, 20, 10], [0.95, 0.5, 0.2, 0.1, 0.05]);
    expect(table.ns).toEqual([10, 20, 50]);
    expect(table.shares).toEqual([0.05, 0.1, 0.2, 0.5, 0.95]);
    const third = 100 / 3;
    expect(table.percent).toEqual([
      // n=10 of {0, .2, .5}     n=20 of {.05, .1, 1}
      [2 * third, 100, null], // ≥ .05: .2 .5      | all three (.05 ≥ .05 counts)
      [2 * third, 2 * third, null], // ≥ .1: .2 .5  | .1 and 1
      [2 * third, third, null], // ≥ .2: .2 .5      | 1
      [third, third, null], // ≥ .5: .5             | 1
      [0, third, null], // ≥ .95: none              | 1
    ]);
  });

  it('writes share_at_least then one column a depth', () => {
    const records = parse(prevalenceCsv(rows, [10, 20], [0.5])) as string[][];
    expect(records).toEqual([
      ['share_at_least', 'n=10', 'n=20'],
      ['0.5', String(100 / 3), String(100 / 3)],
    ]);
  });
});
