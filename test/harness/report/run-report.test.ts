import { describe, expect, it } from 'vitest';
import { chartJsSource } from '../../../harness/report/chartjs-source.ts';
import { configYaml, renderRunReport } from '../../../harness/report/run-report.ts';
import { editedRun, HOSTILE, loadRun, loadTables, RUN_A } from './fixture-runs.ts';
import { parsePage } from './html-parse.ts';

const run = loadRun(RUN_A);
const tables = loadTables(RUN_A);

describe('renderRunReport', () => {
  const html = renderRunReport(run, tables);
  const page = parsePage(html);

  it('is self-contained: chart.js inlined, nothing loaded from anywhere', () => {
    expect(html).toContain('Chart.js v4.6.1');
    expect(page.attributes.filter((a) => a.name === 'src' || (a.tag === 'link' && a.name === 'href'))).toEqual([]);
    expect(page.tags).not.toContain('link');
    // Outside the library's own licence comments, no address of any kind.
    const ours = html.replace(chartJsSource(), '');
    expect(ours.length).toBeLessThan(html.length);
    expect(ours.match(/\b(?:https?|ftp|wss?):\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}\//gi)).toBeNull();
    expect(ours).not.toContain('@font-face');
    expect(ours).not.toContain('@import');
  });

  it('has one canvas per chart config embedded in the page', () => {
    const data = page.scripts.find((s) => s.id === 'chart-data');
    const charts = JSON.parse(data?.content ?? '[]') as { id: string }[];
    const canvases = page.attributes.filter((a) => a.tag === 'canvas' && a.name === 'id').map((a) => a.value);
    expect(canvases).toEqual(charts.map((c) => c.id));
    // comparison 2 (quality against runtime and against cost) + distribution 3 + agreement 12 + MR#1 1 + runtime 1
    expect(canvases).toHaveLength(19);
  });

  it('shows the tables as numbers, the config and the provenance', () => {
    // metrics.csv line 4: integers and text as they are, fractions to three significant figures
    // (by hand: 0.9979 → 0.998, 0.4752 → 0.475, 29.0698 → 29.1) with every digit in the tooltip.
    const cells = tables.metricsCsv.trim().split('\n')[3]?.split(',') ?? [];
    for (const c of cells.filter((x) => x !== '' && !x.includes('.'))) expect(page.text).toContain(c);
    for (const [raw, shown] of [['0.9979', '0.998'], ['0.4752', '0.475'], ['29.0698', '29.1'], ['96.2', '96.2']]) {
      expect(cells).toContain(raw);
      expect(html).toContain(`<td class="num" title="${raw}">${shown}</td>`);
    }
    expect(page.text).toContain('threshold: [ 4, 3, 2 ]');
    expect(page.text).toContain(run.git.commit ?? 'no commit in fixture');
    expect(page.text).toContain('Intel(R) Xeon(R) CPU @ 2.20GHz, 2 CPUs, 7.8 GB, linux/x64');
    expect(page.text).toContain(run.started_at);
  });

  it('shows the hostile document id of a skip as text, never as an element', () => {
    expect(run.corpus.skips[0]?.id).toBe(HOSTILE);
    expect(page.tags).not.toContain('img');
    expect(page.text).toContain(HOSTILE);
  });
});

describe('renderRunReport with hostile names', () => {
  const hostile = editedRun(run, (r) => {
    r.experiment = HOSTILE;
    r.description = '</script><script>alert(2)</script><!--';
    const v = r.variants[1];
    if (v) v.name = `${HOSTILE}</script><!--`;
  });
  const html = renderRunReport(hostile, tables);
  const page = parsePage(html);

  it('renders an experiment or variant named like markup as text', () => {
    expect(page.tags).not.toContain('img');
    expect(page.text).toContain(HOSTILE);
    expect(page.text).toContain('</script><script>alert(2)</script><!--');
  });

  it('keeps the script elements intact: the names travel inside the JSON and parse back', () => {
    expect(page.scripts.map((s) => s.id || s.type || 'code')).toEqual(['code', 'chart-data', 'comparison-data', 'code', 'code']);
    const charts = JSON.parse(page.scripts[1]?.content ?? '') as { config: { data: { datasets: { label: string }[] } } }[];
    const labels = charts.flatMap((c) => c.config.data.datasets.map((d) => d.label));
    expect(labels).toContain(`${HOSTILE}</script><!--`);
  });
});

describe('configYaml', () => {
  it('writes lists of scalars on one line and nested maps as blocks', () => {
    expect(configYaml({ a: { b: [1, 2] }, c: [{ d: 1 }] })).toBe('a:\n  b: [ 1, 2 ]\nc:\n  - d: 1\n');
  });
});
