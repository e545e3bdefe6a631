/**
 * The first section of a run's report: which detector, at which setting, at what cost. Every
 * variant of the run (all detectors) on quality against runtime and cost, with the Pareto
 * frontier, and a table sorted by the chosen quality measure, numbers written for people.
 * The ground truth is the reference, not a contestant: its time is said, not ranked.
 */
import { human, usd } from '../format.ts';
import { columnLegend } from '../results/legend.ts';
import { replayedValues } from '../results/replayed.ts';
import type { RunRecord, VariantRecord } from '../results/types.ts';
import type { ChartSpec } from './charts.ts';
import { escapeHtml } from './escape.ts';
import { embed, renderChartFigure } from './page.ts';
import { leaderboardChart, type CorpusGroup } from './leaderboard.ts';
import { COST_MEASURES, QUALITY_MEASURES, type LeaderboardMeasure } from './quality-measures.ts';

export interface ComparisonSection {
  readonly html: string;
  /** the charts drawn at first (the default quality measure) */
  readonly charts: readonly ChartSpec[];
  /** chart id → quality key → chart.js config, for the measure selector */
  readonly byMeasure: Record<string, Record<string, Record<string, unknown>>>;
}

interface Column {
  readonly head: string;
  readonly value: (v: VariantRecord) => number | null;
  readonly unit?: 'usd';
  /** the quality measure the selector sorts this column by */
  readonly measure?: LeaderboardMeasure;
}

const measure = (key: string) => (v: VariantRecord): number | null => v.measures[key] ?? null;

const COLUMNS: readonly Column[] = [
  ...QUALITY_MEASURES.map((m): Column => ({ head: m.label, value: m.value, measure: m })),
  { head: 'Precision on pairs', value: measure('precision_pairs') },
  { head: 'Correlation', value: measure('correlation') },
  { head: 'Pairs reported', value: measure('pairs') },
  { head: 'Runtime, s', value: measure('runtime_s') },
  { head: 'CPU, s', value: measure('cpu_s') },
  { head: 'Cost', value: measure('cost_usd'), unit: 'usd' },
];

function cell(x: number | null, unit?: 'usd'): string {
  if (x === null) return '<td class="num" data-v="">–</td>';
  return `<td class="num" data-v="${escapeHtml(String(x))}" title="${escapeHtml(String(x))}">${escapeHtml(human(x, unit))}</td>`;
}


/** Best first by the default measure; variants without a value last, in run order. */
function ranked(variants: readonly VariantRecord[], by: LeaderboardMeasure): VariantRecord[] {
  const sign = by.worse === 'lower' ? -1 : 1;
  return variants
    .map((v, i) => ({ v, i, x: by.value(v) }))
    .sort((a, b) => (a.x === null ? 1 : 0) - (b.x === null ? 1 : 0) || (a.x !== null && b.x !== null ? sign * (a.x - b.x) : 0) || a.i - b.i)
    .map(({ v }) => v);
}

function table(variants: readonly VariantRecord[], by: LeaderboardMeasure): string {
  const head = COLUMNS.map((c) => {
    const attrs = c.measure ? ` data-measure="${escapeHtml(c.measure.key)}" data-worse="${c.measure.worse}"` : '';
    return `<th scope="col"${attrs}${c.measure === by ? ` aria-sort="${by.worse === 'lower' ? 'descending' : 'ascending'}"` : ''}>${escapeHtml(c.head)}</th>`;
  }).join('');
  const rows = ranked(variants, by).map((v) => {
    // What a variant took from an earlier run instead of doing it makes its time not its whole cost.
    const replayed = replayedValues(v);
    const note = replayed.length > 0 ? ` <span class="note" title="${escapeHtml(`replayed ${replayed.join(', ')}`)}">(replayed)</span>` : '';
    return `<tr><td>${escapeHtml(v.name)}${note}</td><td>${escapeHtml(v.algorithm)}</td>${COLUMNS.map((c) => cell(c.value(v), c.unit)).join('')}</tr>`;
  });
  return `<div class="table-wrap"><table class="sortable" id="comparison-table"><thead><tr><th scope="col">Variant</th><th scope="col">Detector</th>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

/** The run's legend of the summary's column names, the one `bench run` and `bench run --help` print. */
export function renderLegend(run: RunRecord): string {
  const entries = columnLegend(run.measures);
  if (entries.length === 0) return '';
  const rows = entries.map((e) => `<tr><td><code>${escapeHtml(e.header)}</code></td><td><code>${escapeHtml(e.key)}</code></td><td class="text">${escapeHtml(e.label)}${e.algorithm ? ` (${escapeHtml(e.algorithm)})` : ''}</td></tr>`);
  return `<section id="columns"><h2>Columns</h2>
<p class="note">The names of the summary <code>bench run</code> prints, the columns of metrics.csv they show, and what they mean (also in <code>bench run --help</code>).</p>
<div class="table-wrap"><table><thead><tr><th scope="col">summary</th><th scope="col">metrics.csv</th><th scope="col">meaning</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div></section>`;
}

export function comparisonSection(run: RunRecord): ComparisonSection {
  const contestants = run.variants.filter((v) => !v.ground_truth && v.part_of === undefined);
  const truth = run.variants.find((v) => v.ground_truth);
  const first = QUALITY_MEASURES[0];
  if (!first) throw new Error('no quality measures registered');
  const truthNote = truth ? ` The ground truth, ${truth.name}, took ${human(truth.measures.runtime_s ?? 0)} s and ${usd(truth.measures.cost_usd ?? 0)}.` : '';
  const anyReplayed = contestants.some((v) => replayedValues(v).length > 0);
  const note =
    `Every variant of the run, best first by the quality chosen above; click a header to sort by it. Runtimes and costs are as measured in this run: a variant that reuses what an earlier one computed (the shingles' fingerprints of the same shingling) shows only its own work.` +
    (anyReplayed ? ' A variant marked (replayed) took stored values from an earlier run instead of computing them.' : '') +
    truthNote;
  if (contestants.length === 0) {
    return { html: `<section id="comparison"><h2>Comparison</h2><p class="note">This run has no variant besides the ground truth: nothing to compare.${escapeHtml(truthNote)}</p></section>`, charts: [], byMeasure: {} };
  }
  const group: CorpusGroup = { key: 'run', label: run.experiment, entries: [{ run: { ...run, variants: contestants }, reportHref: '' }] };
  const nameOf = (_: RunRecord, v: VariantRecord): string => v.name;
  const byMeasure: Record<string, Record<string, Record<string, unknown>>> = {};
  const charts = COST_MEASURES.map((cost, i) => {
    const id = `comparison-${i + 1}`;
    const specs = QUALITY_MEASURES.map((q) => [q.key, leaderboardChart(id, group, q, cost, nameOf)] as const);
    byMeasure[id] = Object.fromEntries(specs.map(([k, s]) => [k, embed(s).config]));
    return specs[0]?.[1] as ChartSpec;
  });
  const drawable = charts.filter((c) => c.series.some((s) => s.kind === 'points' && !s.reference && s.points.length > 0));
  const chartsHtml = drawable.length > 0 ? `<div class="grid">${drawable.map(renderChartFigure).join('\n')}</div>` : `<p class="note">No variant has both a quality value and a runtime: nothing to chart.</p>`;
  const html = `<section id="comparison"><h2>Comparison</h2>
<p class="note">${escapeHtml(note)} Column names: <a href="#columns">Columns</a>.</p>
${chartsHtml}
${table(contestants, first)}
</section>`;
  return { html, charts: drawable, byMeasure: Object.fromEntries(Object.entries(byMeasure).filter(([id]) => drawable.some((c) => c.id === id))) };
}
