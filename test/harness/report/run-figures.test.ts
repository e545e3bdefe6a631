import { describe, expect, it } from 'vitest';
import type { ChartSpec, Series } from '../../../harness/report/charts.ts';
import { parseCsvTable } from '../../../harness/report/csv-table.ts';
import { runFigures, type FigureSection } from '../../../harness/report/run-figures.ts';
import { editedRun, loadRun, loadTables, RUN_A } from './fixture-runs.ts';

const run = loadRun(RUN_A);
const tables = loadTables(RUN_A);

/** metrics.csv read with a plain split (no quoting in this fixture): variant → column → cell. */
function metricsByVariant(): Map<string, Record<string, string>> {
  const [head, ...lines] = tables.metricsCsv.trim().split('\n');
  const cols = (head ?? '').split(',');
  return new Map(lines.map((l) => {
    const cells = l.split(',');
    return [cells[1] ?? '', Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']))];
  }));
}

function section(sections: FigureSection[], id: string): FigureSection {
  const s = sections.find((x) => x.id === id);
  if (!s) throw new Error(`no section ${id}`);
  return s;
}

function values(s: Series | undefined): readonly (number | null)[] {
  if (s?.kind !== 'values') throw new Error('expected a values series');
  return s.values;
}

describe('runFigures on the fixture run', () => {
  const sections = runFigures(run, []);

  it('has the distribution, agreement, MR#1 and runtime sections, and no TREC section without extra tables', () => {
    expect(sections.map((s) => s.id)).toEqual(['distribution', 'agreement', 'mr1', 'cost']);
  });

  it('draws the ground truth distribution as Figure 3.4 bars with the numbers of distribution.csv', () => {
    const [head, ...rows] = tables.distributionCsv.trim().split('\n');
    expect(head?.split(',')[1]).toBe('broder/ground-truth');
    const gtColumn = rows.map((r) => Number(r.split(',')[1]));
    const first = section(sections, 'distribution').charts[0];
    expect(first?.type).toBe('bars');
    expect(first && values(first.series[0])).toEqual(gtColumn);
    expect(first?.type === 'bars' && first.labels).toEqual(['RR ≥ 0.9', 'RR ≥ 0.7', 'RR ≥ 0.5', 'RR ≥ 0.3', 'RR ≥ 0.1']);
  });

  it('draws one distribution chart per run group, the ground truth first as the dashed reference', () => {
    const charts = section(sections, 'distribution').charts.slice(1);
    expect(charts.map((c) => c.series.map((s) => s.label))).toEqual([
      ['broder/ground-truth', 'broder/sct=4', 'broder/sct=3', 'broder/sct=2'],
      ['broder/ground-truth', 'broder/mod=2', 'broder/mod=4'],
    ]);
    expect(charts[0]?.series[0]?.reference).toBe(true);
  });

  it('plots each agreement measure against each swept parameter (2 parameters × 6 measures)', () => {
    const charts = section(sections, 'agreement').charts;
    expect(charts).toHaveLength(12);
    const avgErr = charts.find((c) => c.title.startsWith('Average error against sampling.threshold'));
    const m = metricsByVariant();
    const expected = [2, 3, 4].map((t) => ({ x: t, y: Number(m.get(`broder/sct=${t}`)?.['avg_error']), name: `broder/sct=${t}` }));
    const s = avgErr?.series[0];
    expect(s?.kind === 'points' && s.points).toEqual(expected);
    expect(avgErr?.x).toEqual({ title: 'sampling.threshold', scale: 'linear' });
  });

  it('shows the MR#1 reduction of every non-ground-truth variant (Figure 3.9)', () => {
    const chart = section(sections, 'mr1').charts[0] as Extract<ChartSpec, { type: 'bars' }>;
    const m = metricsByVariant();
    const names = [...m.keys()].filter((n) => n !== 'broder/ground-truth');
    expect(chart.labels).toEqual(names);
    expect(values(chart.series[0])).toEqual(names.map((n) => Number(m.get(n)?.['mr1_reduction_pct'])));
  });

  it('draws runtime per variant and leaves out the cost chart when every cost is 0', () => {
    const cost = section(sections, 'cost');
    expect(cost.charts.map((c) => c.title)).toEqual(['Runtime per variant']);
    const m = metricsByVariant();
    expect(values(cost.charts[0]?.series[0])).toEqual([...m.values()].map((row) => Number(row['runtime_s'])));
    expect(cost.note).toContain('0 USD');
  });
});

describe('runFigures on other shapes of run', () => {
  it('adds a cost chart when a variant had a cost', () => {
    const paid = editedRun(run, (r) => {
      for (const v of r.variants) v.measures.cost_usd = 0.05;
    });
    expect(runFigures(paid, []).find((s) => s.id === 'cost')?.charts.map((c) => c.title)).toEqual(['Runtime per variant', 'Cost per variant']);
  });

  it('draws agreement bars per variant when nothing was swept', () => {
    const unswept = editedRun(run, (r) => {
      r.variants = r.variants.slice(0, 2);
      for (const v of r.variants) v.swept = {};
    });
    const charts = runFigures(unswept, []).find((s) => s.id === 'agreement')?.charts ?? [];
    expect(charts.map((c) => [c.type, c.series.length])).toEqual([['bars', 6]]);
  });

  it('uses a category axis for a sweep over words', () => {
    const words = editedRun(run, (r) => {
      for (const v of r.variants.filter((x) => x.name.startsWith('broder/mod'))) v.swept = { 'shingle.unit': v.name.endsWith('2') ? 'char' : 'word' };
    });
    const chart = runFigures(words, []).find((s) => s.id === 'agreement')?.charts.find((c) => c.title.includes('shingle.unit'));
    expect(chart?.type === 'lines' && chart.labels).toEqual(['char', 'word']);
  });

  it('draws a numeric extra table as bars and keeps a non-numeric one to the tables', () => {
    const numeric = { file: 'run-topic-prevalence.csv', description: 'Table 4.1', table: parseCsvTable('ndd_pct,n=10,n=20\n5,,67.46\n10,45.41,49.13\n', 'x') };
    const text = { file: 'topics.csv', description: 'names', table: parseCsvTable('topic,title\n1,obama family tree\n', 'y') };
    const trec = runFigures(run, [numeric, text]).find((s) => s.id === 'trec');
    expect(trec?.charts).toHaveLength(1);
    const c = trec?.charts[0] as Extract<ChartSpec, { type: 'bars' }>;
    expect(c.labels).toEqual(['5', '10']);
    expect(c.series.map((s) => [s.label, values(s)])).toEqual([
      ['n=10', [null, 45.41]],
      ['n=20', [67.46, 49.13]],
    ]);
  });
});
