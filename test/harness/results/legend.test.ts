import { describe, expect, it } from 'vitest';
import { loadAdapters } from '../../../algorithms/registry.ts';
import { columnLegend, legendLines, legendOfDetectors } from '../../../harness/results/legend.ts';
import { GENERAL_MEASURES } from '../../../harness/results/measures.ts';

describe('the legend of the summary\'s columns', () => {
  it('explains every header the summary can print: the general ones and each detector\'s own', async () => {
    const adapters = await loadAdapters();
    const headers = legendOfDetectors(adapters).map((e) => e.header);
    const expected = [
      ...GENERAL_MEASURES.flatMap((m) => (m.summary ? [m.summary.header] : [])),
      ...adapters.flatMap((a) => (a.measures ?? []).flatMap((m) => (m.summary ? [m.summary.header] : []))),
    ];
    expect([...headers].sort()).toEqual([...new Set(expected)].sort());
    for (const h of ['cand_red%', 'mr1_red%', 'clus']) expect(headers).toContain(h);
  });

  it('keeps each line within a 100-column help', async () => {
    for (const line of legendLines(legendOfDetectors(await loadAdapters()))) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('lists a header once, with its metrics.csv column', () => {
    const entries = columnLegend([
      { key: 'runtime_s', label: 'Runtime, s', kind: 'timing', worse: 'higher', summary: { header: 'time_s', digits: 2 } },
      { key: 'pairs', label: 'Pairs reported', kind: 'count', worse: null, summary: { header: 'pairs', digits: 0 } },
    ]);
    expect(entries).toEqual([
      { header: 'pairs', key: 'pairs', label: 'Pairs reported' },
      { header: 'time_s', key: 'runtime_s', label: 'Runtime, s' },
    ]);
  });
});
