import { describe, expect, it } from 'vitest';
import type { AdapterMeasure } from '../../../contract/index.ts';
import { exactMeasures, runMeasures, summaryMeasures } from '../../../harness/results/measures.ts';

const aliasing = {
  name: 'a',
  measures: [
    { key: 'a_candidates', label: 'A candidates', worse: 'higher', shows: 'candidate_pairs' },
    { key: 'a_reduction', label: 'A reduction', worse: 'lower', shows: 'candidate_reduction_pct', summary: { header: 'a_red%', digits: 1 } },
  ] satisfies AdapterMeasure[],
};
const plain = { name: 'b' };
const has = (keys: string[]) => (k: string) => keys.includes(k);
const GENERAL = ['docs', 'pairs', 'avg_error', 'correlation', 'precision_docs', 'recall_docs', 'precision_pairs', 'recall_pairs', 'f1_pairs', 'runtime_s', 'cpu_s', 'peak_rss_mb', 'cost_usd'];

describe('runMeasures', () => {
  it('has the general columns in docs/design.md §10.2 order, then the adapters’ own', () => {
    const keys = runMeasures([{ adapter: aliasing, has: has(['candidate_pairs', 'candidate_reduction_pct']) }]).map((m) => m.key);
    expect(keys).toEqual([...GENERAL, 'a_candidates', 'a_reduction']);
  });

  it('shows a general measure when a variant has it under no name of its own', () => {
    const keys = runMeasures([
      { adapter: aliasing, has: has(['candidate_pairs', 'candidate_reduction_pct']) },
      { adapter: plain, has: has(['candidate_pairs', 'candidate_reduction_pct']) },
    ]).map((m) => m.key);
    expect(keys).toEqual([...GENERAL, 'candidate_pairs', 'candidate_reduction_pct', 'a_candidates', 'a_reduction']);
  });

  it('leaves out an optional general measure no variant has', () => {
    expect(runMeasures([{ adapter: plain, has: has([]) }]).map((m) => m.key)).toEqual(GENERAL);
  });

  it('gives an adapter’s alias the kind of the measure it shows', () => {
    const m = runMeasures([{ adapter: aliasing, has: has([]) }]);
    expect(m.find((x) => x.key === 'a_candidates')).toMatchObject({ kind: 'count', algorithm: 'a', shows: 'candidate_pairs' });
    expect(m.find((x) => x.key === 'a_reduction')).toMatchObject({ kind: 'quality', algorithm: 'a' });
  });
});

describe('summaryMeasures and exactMeasures', () => {
  const all = runMeasures([
    { adapter: aliasing, has: has(['candidate_pairs', 'candidate_reduction_pct']) },
    { adapter: plain, has: has(['candidate_pairs', 'candidate_reduction_pct']) },
  ]);
  it('puts the summary in its order, adapters’ columns before the runtime', () => {
    expect(summaryMeasures(all).map((m) => m.summary?.header)).toEqual(['pairs', 'avg_err', 'corr', 'P_pairs', 'R_pairs', 'P_docs', 'R_docs', 'cand_red%', 'a_red%', 'time_s']);
  });
  it('compares counts and quality exactly, not timings, memory, cost or the document count', () => {
    const keys = exactMeasures(all).map((m) => m.key);
    expect(keys).toContain('pairs');
    expect(keys).toContain('a_reduction');
    for (const k of ['docs', 'runtime_s', 'cpu_s', 'peak_rss_mb', 'cost_usd']) expect(keys).not.toContain(k);
  });
});
