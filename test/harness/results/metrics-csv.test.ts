import { describe, expect, it } from 'vitest';
import type { Counters } from '../../../contract/index.ts';
import { metricsCsv } from '../../../harness/results/metrics-csv.ts';
import type { MeasureInfo } from '../../../harness/results/measures.ts';
import type { VariantRecord } from '../../../harness/results/types.ts';
import { variantRecord } from '../../support/variant-record.ts';

function variant(name: string, counters: Counters): VariantRecord {
  return variantRecord(name, { algorithm: name.split('/')[0] ?? name, counters });
}

const NO_MEASURES: readonly MeasureInfo[] = [];

function table(csv: string): string[][] {
  return csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
}

describe('metricsCsv counter columns', () => {
  it('sorts the counters by group then name, whatever order the variants list them in', () => {
    // Written by hand: groups in byte order (job2 < jobs < z), names in byte order within each.
    const expected = ['experiment', 'variant', 'algorithm', 'job2.a', 'job2.b', 'jobs.Z', 'jobs.a', 'z.x'];
    const a = variant('a/x', { z: { x: 1 }, jobs: { a: 2, Z: 3 } });
    const b = variant('b/y', { job2: { b: 4, a: 5 }, jobs: { a: 6 } });
    expect(table(metricsCsv('e', NO_MEASURES, [a, b]))[0]).toEqual(expected);
    expect(table(metricsCsv('e', NO_MEASURES, [b, a]))[0]).toEqual(expected);
  });

  it('gives 0 for a counter absent from a group the variant has, and an empty cell when it lacks the group', () => {
    const gt = variant('gt', { jobs: { read: 10, pairs: 7 }, extra: { hits: 2 } });
    // `jobs` exists without `pairs` → 0; `extra` never arrived → empty cells.
    const other = variant('other', { jobs: { read: 9 } });
    const rows = table(metricsCsv('e', NO_MEASURES, [gt, other]));
    expect(rows[0]).toEqual(['experiment', 'variant', 'algorithm', 'extra.hits', 'jobs.pairs', 'jobs.read']);
    expect(rows[1]).toEqual(['e', 'gt', 'gt', '2', '7', '10']);
    expect(rows[2]).toEqual(['e', 'other', 'other', '', '0', '9']);
  });

  it('gives an empty cell, not 0, for a counter the variant left out on purpose', () => {
    const counted = variant('counted', { jobs: { read: 10, pairs: 7 } });
    const skipped: VariantRecord = { ...variant('skipped', { jobs: { read: 9 } }), uncounted: ['jobs.pairs'] };
    const rows = table(metricsCsv('e', NO_MEASURES, [counted, skipped]));
    expect(rows[0]).toEqual(['experiment', 'variant', 'algorithm', 'jobs.pairs', 'jobs.read']);
    expect(rows[2]).toEqual(['e', 'skipped', 'skipped', '', '9']);
  });
});
