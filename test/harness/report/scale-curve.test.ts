import { describe, expect, it } from 'vitest';
import { renderLeaderboard } from '../../../harness/report/leaderboard.ts';
import { powerFit, predict, renderScaleSections, scaleChart, scaleCurves, variantCurves } from '../../../harness/report/scale-curve.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { editedRun, loadRun, RUN_A } from './fixture-runs.ts';

const a = loadRun(RUN_A);

/** Run A over `docs` documents, every variant's runtime 2e-4·N^1.1 s and peak memory 3·N^0.5 MB. */
function sized(docs: number, experiment = a.experiment): RunRecord {
  return editedRun(a, (r) => {
    r.experiment = experiment;
    r.run_id = `n${docs}`;
    r.corpus.documents = docs;
    r.backend = { kind: 'local', memory_mb: 8192, workers: 2 };
    for (const v of r.variants) {
      v.measures['runtime_s'] = 2e-4 * docs ** 1.1;
      v.measures['peak_rss_mb'] = 3 * docs ** 0.5;
      v.measures['cpu_s'] = 1e-4 * docs;
      v.measures['spill_mb'] = docs / 1000;
    }
  });
}

const entries = [10_000, 100_000, 1_000_000].map((n) => ({ run: sized(n), reportHref: `r/${n}/report.html` }));

describe('cost curve', () => {
  it('takes runs of one experiment and backend over two sizes or more, and leaves out the others', () => {
    const other = { run: sized(5000, 'elsewhere'), reportHref: 'x' };
    const tighter = { run: editedRun(sized(20_000), (r) => void (r.backend = { kind: 'local', memory_mb: 1024, workers: 2 })), reportHref: 'y' };
    const streaming = [1000, 2000].map((n) => ({ run: editedRun(sized(n), (r) => void (r.backend = { kind: 'streaming' })), reportHref: `s${n}` }));
    const curves = scaleCurves([...entries, other, tighter, ...streaming]);
    expect(curves.map((c) => [c.experiment, c.backend, c.documents.length])).toEqual([
      [a.experiment, 'local, memory_mb 8192, 2 workers', 3],
      [a.experiment, 'streaming', 2],
    ]);
    expect(curves[1]?.budgetMb).toBeNull();
    expect(curves[0]?.documents).toEqual([10_000, 100_000, 1_000_000]);
    expect(curves[0]?.budgetMb).toBe(8192);
  });

  it('fits the power law of each variant: runtime 2e-4 N^1.1, memory 3 N^0.5', () => {
    const curve = scaleCurves(entries)[0];
    if (!curve) throw new Error('no curve');
    for (const c of variantCurves(curve, 'runtime_s')) {
      const fit = powerFit(c.points);
      expect(fit?.slope).toBeCloseTo(1.1, 10);
      expect(10 ** (fit?.intercept ?? 0)).toBeCloseTo(2e-4, 12);
      // ten times the largest corpus: 2e-4 × 1e7^1.1 = 10,023.7 s
      expect(predict(fit as NonNullable<typeof fit>, 1e7)).toBeCloseTo(2e-4 * 1e7 ** 1.1, 6);
    }
    for (const c of variantCurves(curve, 'peak_rss_mb')) expect(powerFit(c.points)?.slope).toBeCloseTo(0.5, 10);
    expect(powerFit([{ x: 10, y: 1 }, { x: 10, y: 2 }])).toBeNull();
  });

  it('draws both axes logarithmic, a line a variant with its slope, and the memory budget', () => {
    const curve = scaleCurves(entries)[0];
    if (!curve) throw new Error('no curve');
    const memory = scaleChart('m', curve, { key: 'peak_rss_mb', title: 't', axis: 'MB' });
    expect(memory.type === 'xy' && memory.x.scale).toBe('logarithmic');
    expect(memory.type === 'xy' && memory.y.scale).toBe('logarithmic');
    const names = memory.series.map((s) => s.label);
    expect(names).toContain('broder/ground-truth (∝ N^0.50)');
    const budget = memory.series.find((s) => s.label === 'memory_mb 8192');
    expect(budget?.kind === 'points' && budget.points.map((p) => [p.x, p.y])).toEqual([
      [10_000, 8192],
      [1_000_000, 8192],
    ]);
  });

  it('is a section of the leaderboard with a table of the slopes and the extrapolation', () => {
    const html = renderLeaderboard(entries, { generatedAt: 'now', resultsDir: 'results' });
    // (toBe(true), not toContain: a failure would print the whole page with chart.js in it)
    expect(html.includes(`Cost curve: ${a.experiment} (local, memory_mb 8192, 2 workers)`)).toBe(true);
    expect(html.includes('Runtime at 10,000,000 (extrapolated), s')).toBe(true);
    // 2e-4 × 1e7^1.1 = 10,023.7 s, shown without decimals
    expect(html.includes('>10024<')).toBe(true);
    const { charts } = renderScaleSections(scaleCurves(entries), 'scale');
    expect(charts.map((c) => c.id)).toEqual(['scale-1-1', 'scale-1-2']);
    for (const id of ['scale-1-1', 'scale-1-2']) expect(html.includes(`id="${id}"`)).toBe(true);
  });
});
