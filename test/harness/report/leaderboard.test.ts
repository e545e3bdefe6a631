import { describe, expect, it } from 'vitest';
import { groupByCorpus, leaderboardChart, leaderboardPoints, renderLeaderboard } from '../../../harness/report/leaderboard.ts';
import { COST_MEASURES, QUALITY_MEASURES } from '../../../harness/report/quality-measures.ts';
import { editedRun, HOSTILE, loadRun, RUN_A, RUN_B } from './fixture-runs.ts';
import { parsePage } from './html-parse.ts';

const a = loadRun(RUN_A);
const b = loadRun(RUN_B);
const entries = [
  { run: a, reportHref: 'tiny-sct/a/report.html' },
  { run: b, reportHref: 'tiny-sct/b/report.html' },
];
const [f1, recall, avgError] = QUALITY_MEASURES;
const [runtime] = COST_MEASURES;
if (!f1 || !recall || !avgError || !runtime) throw new Error('measure registry changed');

describe('groupByCorpus', () => {
  it('puts runs over the same documents together and others apart', () => {
    const elsewhere = editedRun(b, (r) => {
      r.corpus.documents = 13;
    });
    const groups = groupByCorpus([entries[0] ?? { run: a, reportHref: '' }, { run: elsewhere, reportHref: 'x' }, entries[1] ?? { run: b, reportHref: '' }]);
    expect(groups.map((g) => g.entries.length)).toEqual([2, 1]);
    expect(groups[0]?.label).toBe('jsonl test/fixtures/corpus/tiny-mail.jsonl, 12 documents');
  });
});

describe('leaderboard points and frontier', () => {
  const group = groupByCorpus(entries)[0];
  if (!group) throw new Error('no group');

  it('has one point per variant of every run', () => {
    expect(leaderboardPoints(group, f1, runtime)).toHaveLength(a.variants.length + b.variants.length);
  });

  it('marks as frontier the fastest variant at each F1 level (higher is better)', () => {
    // From the fixture's metrics.csv: F1 0.6667 at best 0.139 s (mod=4, run A); 0.8889 at 0.214 s (mod=2, run B);
    // 1 at 0.289 s (sct=3, run B). Everything else is slower for no more F1.
    const chart = leaderboardChart('c', group, f1, runtime);
    const frontier = chart.series.find((s) => s.label === 'Pareto frontier');
    expect(frontier?.kind === 'points' && frontier.points.map((p) => [p.x, p.y])).toEqual([
      [0.139, 0.6667],
      [0.214, 0.8889],
      [0.289, 1],
    ]);
  });

  it('turns the frontier around for average error (lower is better)', () => {
    // Error 0.1225 at 0.139 s (mod=4, A), 0.04 at 0.214 s (mod=2, B), 0.0029 at 0.318 s (sct=4, A); the truth (B) is no contestant.
    const chart = leaderboardChart('c', group, avgError, runtime);
    const frontier = chart.series.find((s) => s.label === 'Pareto frontier');
    expect(frontier?.kind === 'points' && frontier.points.map((p) => [p.x, p.y])).toEqual([
      [0.139, 0.1225],
      [0.214, 0.04],
      [0.318, 0.0029],
    ]);
  });

  it('draws the ground truth as the reference it is: on no frontier, in a series of its own', () => {
    // The two runs' truths, error 0 at 0.412 s (A) and 0.405 s (B): exact by definition, one would end every frontier.
    const chart = leaderboardChart('c', group, avgError, runtime);
    const truth = chart.series.find((s) => s.label === 'ground truth (the reference)');
    expect(truth?.kind === 'points' && truth.points.map((p) => [p.x, p.y])).toEqual([
      [0.412, 0],
      [0.405, 0],
    ]);
    expect(chart.series.filter((s) => s.kind === 'points' && s.points.some((p) => p.y === 0 && p.x === 0.405)).map((s) => s.label)).toEqual(['ground truth (the reference)']);
  });
});

describe('leaderboard series', () => {
  /** Run A with two of its variants as external commands: `datasketch` and, swept, `text-dedup`. */
  const withExternal = editedRun(a, (r) => {
    const [, v1, v2, v3] = r.variants;
    if (!v1 || !v2 || !v3) throw new Error('fixture changed');
    Object.assign(v1, { name: 'datasketch', algorithm: 'external', series: 'datasketch' });
    Object.assign(v2, { name: 'text-dedup/threshold=0.5', algorithm: 'external', series: 'text-dedup' });
    Object.assign(v3, { name: 'text-dedup/threshold=0.7', algorithm: 'external', series: 'text-dedup' });
  });
  const group = groupByCorpus([{ run: withExternal, reportHref: 'x' }])[0];
  if (!group) throw new Error('no group');
  const chart = leaderboardChart('c', group, f1, runtime);
  const points = (label: string): string[] => {
    const s = chart.series.find((x) => x.label === label);
    return s?.kind === 'points' ? s.points.map((p) => (p as { name: string }).name.split(' · ')[1] as string) : [];
  };

  it('gives each external run a series of its own, by its name', () => {
    expect(chart.series.map((s) => s.label)).toEqual(['external: datasketch', 'external: text-dedup', 'broder', 'ground truth (the reference)', 'Pareto frontier']);
    expect(points('external: datasketch')).toEqual(['datasketch']);
    expect(points('external: text-dedup')).toEqual(['text-dedup/threshold=0.5', 'text-dedup/threshold=0.7']);
  });

  it('keeps every variant of a built-in detector in one series', () => {
    expect(points('broder')).toEqual(['broder/mod=2', 'broder/mod=4']);
  });

  it('names the series in the table', () => {
    const html = renderLeaderboard([{ run: withExternal, reportHref: 'x' }], { generatedAt: 'now', resultsDir: 'results' });
    expect(html).toContain('<td>text-dedup/threshold=0.7</td><td>external: text-dedup</td>');
  });
});

describe('renderLeaderboard', () => {
  const html = renderLeaderboard(entries, { generatedAt: '2025-11-22T12:00:00.000Z', resultsDir: 'results' });
  const page = parsePage(html);

  it('offers the three quality measures in a select', () => {
    const options = page.attributes.filter((x) => x.tag === 'option').map((x) => x.value);
    expect(options).toEqual(['f1_pairs', 'recall_pairs', 'avg_error']);
  });

  it('embeds a chart config per canvas and per measure', () => {
    const data = JSON.parse(page.scripts.find((s) => s.id === 'leaderboard-data')?.content ?? '{}') as Record<string, Record<string, unknown>>;
    const canvases = page.attributes.filter((x) => x.tag === 'canvas' && x.name === 'id').map((x) => x.value);
    expect(Object.keys(data)).toEqual(canvases);
    expect(canvases).toHaveLength(2);
    for (const id of canvases) expect(Object.keys(data[id] ?? {})).toEqual(['f1_pairs', 'recall_pairs', 'avg_error']);
  });

  it('lists every variant in a sortable table with links to the run reports', () => {
    const rows = html.match(/<tr><td>/g) ?? [];
    expect(rows).toHaveLength(12);
    const links = page.attributes.filter((x) => x.tag === 'a' && x.name === 'href').map((x) => x.value);
    expect(new Set(links)).toEqual(new Set(['tiny-sct/a/report.html', 'tiny-sct/b/report.html']));
    expect(html).toContain('<table class="sortable">');
  });

  it('ranks the variants by F1 and puts the ground truths, the reference, after them', () => {
    const rows = [...html.matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)(<em>[^<]*<\/em>)?<\/td>/g)].map((m) => [(m[1] as string).trim(), m[2] !== undefined]);
    const firstTruth = rows.findIndex(([, truth]) => truth);
    expect(firstTruth).toBe(rows.length - 2);
    expect(rows.slice(firstTruth).every(([, truth]) => truth)).toBe(true);
    expect(html).toContain('(ground truth: the reference, not ranked)');
  });

  it('renders hostile experiment and variant names as text', () => {
    const hostile = editedRun(a, (r) => {
      r.experiment = HOSTILE;
      const v = r.variants[0];
      if (v) v.name = `</script>${HOSTILE}`;
    });
    const p = parsePage(renderLeaderboard([{ run: hostile, reportHref: 'x/report.html' }], { generatedAt: 'now', resultsDir: 'results' }));
    expect(p.tags).not.toContain('img');
    expect(p.text).toContain(HOSTILE);
    expect(p.text).toContain(`</script>${HOSTILE}`);
    expect(p.scripts.map((s) => s.id || 'code')).toEqual(['code', 'chart-data', 'leaderboard-data', 'code', 'code']);
  });
});
