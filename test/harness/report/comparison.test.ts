import { describe, expect, it } from 'vitest';
import { comparisonSection, renderLegend } from '../../../harness/report/comparison.ts';
import { editedRun, loadRun, RUN_A } from './fixture-runs.ts';
import { parsePage } from './html-parse.ts';

const run = loadRun(RUN_A);

/** The rows of the comparison table, as their first cell (the variant) and the shown F1. */
function rows(html: string): string[][] {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr><td>(.*?)<\/td><td>.*?<\/td><td class="num"[^>]*>(.*?)<\/td>/g)].map((m) => [m[1] ?? '', m[2] ?? '']);
}

describe('the run report\'s comparison', () => {
  it('ranks every variant but the ground truth by F1, best first, ties in run order', () => {
    const section = comparisonSection(run);
    // The fixture's F1: sct=4 and sct=3 1, mod=2 0.8889, sct=2 and mod=4 0.6667; the ground truth is not ranked.
    const shown = rows(section.html);
    expect(shown.map((r) => r[0])).not.toContain('broder/ground-truth');
    const f1 = run.variants.filter((v) => !v.ground_truth).map((v) => [v.name, v.measures.f1_pairs ?? -1] as const);
    const expected = [...f1].sort((a, b) => b[1] - a[1]).map(([n]) => n);
    expect(shown.map((r) => r[0])).toEqual(expected);
  });

  it('names the ground truth\'s time and cost in its note instead', () => {
    const truth = run.variants.find((v) => v.ground_truth);
    expect(parsePage(comparisonSection(run).html).text).toContain(`The ground truth, ${truth?.name}, took ${truth?.measures.runtime_s} s and $0.00.`);
  });

  it('writes money in dollars and cents and keeps every digit in the sort key', () => {
    const priced = editedRun(run, (r) => {
      const v = r.variants[1];
      if (v) v.measures.cost_usd = 0.00001313;
    });
    const html = comparisonSection(priced).html;
    expect(html).toContain('<td class="num" data-v="0.00001313" title="0.00001313">under $0.01</td>');
    expect(html).not.toMatch(/\de-\d/);
  });

  it('draws quality against runtime and cost, with a chart config for every quality measure', () => {
    const section = comparisonSection(run);
    expect(section.charts.map((c) => c.title)).toEqual(['F1 on pairs against runtime run alone', 'F1 on pairs against cost run alone']);
    for (const id of ['comparison-1', 'comparison-2']) expect(Object.keys(section.byMeasure[id] ?? {})).toEqual(['f1_pairs', 'recall_pairs', 'avg_error']);
  });

  it('says there is nothing to compare in a run of the ground truth alone', () => {
    const alone = editedRun(run, (r) => {
      r.variants = r.variants.filter((v) => v.ground_truth);
    });
    const section = comparisonSection(alone);
    expect(section.charts).toEqual([]);
    expect(parsePage(section.html).text).toContain('This run has no variant besides the ground truth: nothing to compare.');
  });
});

describe('the legend of column names', () => {
  it('lists the summary\'s columns with their metrics.csv column and meaning', () => {
    const text = parsePage(renderLegend(run)).text;
    for (const m of run.measures.filter((x) => x.summary)) {
      expect(text).toContain(m.summary?.header);
      expect(text).toContain(m.label);
    }
  });
});
