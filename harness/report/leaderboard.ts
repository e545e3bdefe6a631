/**
 * leaderboard.html over every run found: per corpus, quality against runtime and against cost
 * for every variant of every algorithm with the Pareto frontier drawn (ann-benchmarks' plots),
 * a <select> for the quality measure, and a sortable table linking each run's report.
 */
import type { RunRecord, VariantRecord } from '../results/types.ts';
import { numericScale, type ChartSpec, type Series, type XYPoint } from './charts.ts';
import { human } from '../format.ts';
import { escapeHtml } from './escape.ts';
import { embed, renderChartFigure, renderPage } from './page.ts';
import { paretoFrontier } from './pareto.ts';
import { COST_MEASURES, QUALITY_MEASURES, type LeaderboardMeasure } from './quality-measures.ts';
import { interactiveScript } from './interactive.ts';
import { renderScaleSections, scaleCurves } from './scale-curve.ts';

export interface LeaderboardEntry {
  readonly run: RunRecord;
  /** the run's report.html relative to leaderboard.html, `/`-separated */
  readonly reportHref: string;
}

export interface CorpusGroup {
  readonly key: string;
  readonly label: string;
  readonly entries: readonly LeaderboardEntry[];
}

export interface LeaderboardPoint extends XYPoint {
  readonly name: string;
  /** the series it is drawn in: its algorithm, or for an adapter whose runs are methods of their own (`external`) the algorithm and the run's name */
  readonly series: string;
  /** a ground truth: exact by definition, the reference the others are scored against, never ranked */
  readonly reference: boolean;
}

/** Runs are comparable when they read the same documents: same format, path and count. */
export function groupByCorpus(entries: readonly LeaderboardEntry[]): CorpusGroup[] {
  const groups = new Map<string, { label: string; entries: LeaderboardEntry[] }>();
  for (const e of entries) {
    const c = e.run.corpus;
    const key = JSON.stringify([c.format, c.path, c.documents]);
    const g = groups.get(key);
    if (g) g.entries.push(e);
    else groups.set(key, { label: `${c.format} ${c.path ?? '(bundled)'}, ${c.documents} documents`, entries: [e] });
  }
  return [...groups].map(([key, g]) => ({ key, ...g }));
}

export function pointName(run: RunRecord, v: VariantRecord): string {
  return `${run.experiment} · ${v.name}${v.ground_truth ? ' (ground truth)' : ''} · ${run.run_id}`;
}

/** The series a variant is drawn in: `external: datasketch` and `external: text-dedup` apart, every `broder` variant together. */
export function seriesOf(v: Pick<VariantRecord, 'algorithm' | 'series'>): string {
  return v.series === undefined ? v.algorithm : `${v.algorithm}: ${v.series}`;
}

/** Every variant of every run in the group with a value for both measures. */
export function leaderboardPoints(group: CorpusGroup, quality: LeaderboardMeasure, cost: LeaderboardMeasure, nameOf: (run: RunRecord, v: VariantRecord) => string = pointName): LeaderboardPoint[] {
  return group.entries.flatMap(({ run }) =>
    run.variants.flatMap((v) => {
      const y = quality.value(v);
      const x = cost.value(v);
      return y === null || x === null ? [] : [{ x, y, name: nameOf(run, v), series: seriesOf(v), reference: v.ground_truth }];
    }),
  );
}

export function leaderboardChart(id: string, group: CorpusGroup, quality: LeaderboardMeasure, cost: LeaderboardMeasure, nameOf?: (run: RunRecord, v: VariantRecord) => string): ChartSpec {
  const points = leaderboardPoints(group, quality, cost, nameOf);
  // A ground truth scores perfectly against itself: drawn for its cost, but on no frontier.
  const ranked = points.filter((p) => !p.reference);
  const truths = points.filter((p) => p.reference);
  const seriesNames = [...new Set(ranked.map((p) => p.series))];
  const frontier = paretoFrontier(ranked, { xLower: cost.worse === 'higher', yHigher: quality.worse === 'lower' });
  const series: Series[] = [
    ...seriesNames.map((a): Series => ({ kind: 'points', label: a, line: false, points: ranked.filter((p) => p.series === a) })),
    ...(truths.length > 0 ? [{ kind: 'points', label: 'ground truth (the reference)', line: false, reference: true, points: truths } satisfies Series] : []),
    { kind: 'points', label: 'Pareto frontier', line: true, reference: true, points: frontier },
  ];
  return {
    id,
    title: `${quality.label} against ${cost.noun}`,
    type: 'xy',
    series,
    // Costs and runtimes start at zero: a linear axis that shows negative values would mislead.
    x: ((scale) => (scale === 'linear' ? { title: cost.label, scale, min: 0 } : { title: cost.label, scale }))(numericScale(points.map((p) => p.x))),
    y: { title: quality.label, scale: 'linear', ...(quality.worse === 'lower' ? { max: 1 } : { min: 0 }) },
  };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A number for people (three significant figures, money in dollars and cents), every digit in the sort key and tooltip. */
function numCell(x: number | null, unit?: 'usd'): string {
  if (x === null) return '<td class="num" data-v=""></td>';
  return `<td class="num" data-v="${escapeHtml(String(x))}" title="${escapeHtml(String(x))}">${escapeHtml(human(x, unit))}</td>`;
}

function renderTable(group: CorpusGroup): string {
  const rows = group.entries
    .flatMap(({ run, reportHref }) => run.variants.map((v) => ({ run, v, reportHref })))
    // Best F1 first; runs without one (empty denominator) last; the ground truths, which score
    // perfectly against themselves, after every variant they score.
    .sort((a, b) => Number(a.v.ground_truth) - Number(b.v.ground_truth) || (b.v.measures.f1_pairs ?? -Infinity) - (a.v.measures.f1_pairs ?? -Infinity));
  const head = ['Experiment', 'Variant', 'Algorithm', 'F1 (pairs)', 'Recall (pairs)', 'Precision (pairs)', 'Avg error', 'Runtime, s', 'Cost', 'Backend', 'Started', 'Report'];
  const measureOf: Record<string, LeaderboardMeasure | undefined> = { 'F1 (pairs)': QUALITY_MEASURES[0], 'Recall (pairs)': QUALITY_MEASURES[1], 'Avg error': QUALITY_MEASURES[2] };
  const th = head
    .map((h) => {
      const m = measureOf[h];
      const attrs = m ? ` data-measure="${escapeHtml(m.key)}" data-worse="${m.worse}"` : '';
      return `<th scope="col"${attrs}${h === 'F1 (pairs)' ? ' aria-sort="descending"' : ''}>${escapeHtml(h)}</th>`;
    })
    .join('');
  const body = rows
    .map(
      ({ run, v, reportHref }) =>
        `<tr><td>${escapeHtml(run.experiment)}</td><td>${escapeHtml(v.name)}${v.ground_truth ? ' <em>(ground truth: the reference, not ranked)</em>' : ''}</td><td>${escapeHtml(seriesOf(v))}</td>` +
        numCell(v.measures.f1_pairs ?? null) +
        numCell(v.measures.recall_pairs ?? null) +
        numCell(v.measures.precision_pairs ?? null) +
        numCell(v.measures.avg_error ?? null) +
        numCell(v.measures.runtime_s ?? null) +
        numCell(v.measures.cost_usd ?? 0, 'usd') +
        `<td>${escapeHtml(run.backend.kind)}</td><td>${escapeHtml(run.started_at)}</td><td><a href="${escapeHtml(reportHref)}">${escapeHtml(run.run_id)}</a></td></tr>`,
    )
    .join('\n');
  return `<div class="table-wrap"><table class="sortable"><thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}


export interface LeaderboardOptions {
  readonly generatedAt: string;
  /** how the results folder was named on the command line, for the heading */
  readonly resultsDir: string;
}

export function renderLeaderboard(entries: readonly LeaderboardEntry[], opts: LeaderboardOptions): string {
  const groups = groupByCorpus(entries);
  const defaultMeasure = QUALITY_MEASURES[0];
  if (!defaultMeasure) throw new Error('no quality measures registered');
  let n = 0;
  const perMeasure: Record<string, Record<string, Record<string, unknown>>> = {};
  const initial: ChartSpec[] = [];
  const sections = groups.map((g, gi) => {
    const ids = COST_MEASURES.map((cost) => {
      n += 1;
      const id = `chart-${n}`;
      const specs = Object.fromEntries(QUALITY_MEASURES.map((q) => [q.key, leaderboardChart(id, g, q, cost)]));
      perMeasure[id] = Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, embed(s).config]));
      const first = specs[defaultMeasure.key];
      if (first) initial.push(first);
      return first;
    });
    const runs = g.entries.length;
    const variants = g.entries.reduce((a, e) => a + e.run.variants.length, 0);
    const free = g.entries.every((e) => e.run.variants.every((v) => (v.measures.cost_usd ?? 0) === 0));
    return `<section id="corpus-${gi + 1}"><h2>${escapeHtml(g.label)}</h2>
<p class="note">${plural(runs, 'run')}, ${plural(variants, 'variant')}. Each point is a variant; the dashed line joins the variants no other beats on both axes.${free ? ' Every variant cost 0 USD (no cloud backend).' : ''}</p>
<div class="grid">${ids.map((s) => (s ? renderChartFigure(s) : '')).join('\n')}</div>
${renderTable(g)}
</section>`;
  });
  // Runs of one experiment over corpora of several sizes: the cost curve (configs/scale.yaml).
  const scale = renderScaleSections(scaleCurves(entries), 'scale');
  const options = QUALITY_MEASURES.map((q) => `<option value="${escapeHtml(q.key)}">${escapeHtml(q.label)}</option>`).join('');
  const totalVariants = entries.reduce((a, e) => a + e.run.variants.length, 0);
  const body = `<header>
<h1>ndd-bench leaderboard</h1>
<p>${escapeHtml(`${plural(entries.length, 'run')}, ${plural(totalVariants, 'variant')}, ${plural(groups.length, 'corpus', 'corpora')} in ${opts.resultsDir}; generated ${opts.generatedAt}`)}</p>
</header>
<nav><label class="measure" for="measure">Quality</label><select id="measure">${options}</select></nav>
<main>
${sections.length ? sections.join('\n') : '<p class="note">No runs found.</p>'}
${scale.html}
</main>`;
  return renderPage({
    title: 'ndd-bench leaderboard',
    body,
    charts: [...initial, ...scale.charts].map(embed),
    data: { 'leaderboard-data': perMeasure },
    script: interactiveScript('leaderboard-data'),
  });
}
