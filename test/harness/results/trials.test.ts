import { describe, expect, it } from 'vitest';
import type { Counters } from '../../../contract/index.ts';
import { averageTrials } from '../../../harness/results/trials.ts';
import type { VariantRecord } from '../../../harness/results/types.ts';
import { variantRecord } from '../../support/variant-record.ts';

function trial(name: string, counters: Counters): VariantRecord {
  return variantRecord(name, { counters });
}

describe('averageTrials counters', () => {
  it('averages a counter over the trials that have its group only', () => {
    const parts = [
      trial('v/t=1', { g: { a: 2, b: 4 }, h: { x: 10 } }),
      trial('v/t=2', { g: { a: 6 } }), // g without b: b is 0 here; h never arrived
      trial('v/t=3', { h: { x: 20 } }), // g never arrived
    ];
    const v = averageTrials({ name: 'v', params: {}, swept: {} }, parts);
    // By hand: g.a = (2 + 6) / 2, g.b = (4 + 0) / 2 over t=1, t=2; h.x = (10 + 20) / 2 over t=1, t=3.
    expect(v.counters).toEqual({ g: { a: 4, b: 2 }, h: { x: 15 } });
    expect(v.warnings).toEqual(['counters g: the mean of the 2 of 3 trials whose counters arrived', 'counters h: the mean of the 2 of 3 trials whose counters arrived']);
  });

  it('averages over every trial when all have the group', () => {
    const v = averageTrials({ name: 'v', params: {}, swept: {} }, [trial('v/1', { g: { a: 1 } }), trial('v/2', { g: { a: 2 } }), trial('v/3', { g: {} })]);
    // (1 + 2 + 0) / 3
    expect(v.counters).toEqual({ g: { a: 1 } });
    expect(v.warnings).toEqual([]);
  });
});
