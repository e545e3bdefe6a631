/**
 * A run's report.html: the thesis' figures for the sweeps the run has, the tables as numbers,
 * the config and the provenance. Pure apart from reading chart.js: a string out.
 */
import { Document, isScalar, visit } from 'yaml';
import type { RunRecord } from '../results/types.ts';
import { parseCsvTable, renderCsvTable } from './csv-table.ts';
import { escapeHtml } from './escape.ts';
import { embed, renderChartFigure, renderPage } from './page.ts';
import type { ChartSpec } from './charts.ts';
import { comparisonSection, renderLegend } from './comparison.ts';
import { interactiveScript } from './interactive.ts';
import { QUALITY_MEASURES } from './quality-measures.ts';
import { runFigures, type ExtraTable, type FigureSection } from './run-figures.ts';
import { renderSharedText, SHARED_TEXT_STYLE } from './shared-text.ts';
import type { SpanExamplesFile } from '../results/span-examples.ts';
import type { CurvePoint } from '../evaluate/judgments.ts';
import { ERROR_BROWSER_STYLE, errorBrowserJson, renderErrorBrowser, type VariantErrors } from './error-browser.ts';
import { errorBrowserScript } from './error-browser-script.ts';

export interface RunTables {
  readonly metricsCsv: string;
  readonly distributionCsv: string;
  /** extra tables by file name (run.tables), CSV text */
  readonly extra: Record<string, string>;
  /** span-examples/<variant>.json of the variants that wrote spans, in variant order */
  readonly spanExamples?: readonly SpanExamplesFile[];
  /** judgments/<variant>.csv: each variant's precision-recall curve on the judged pairs, by variant */
  readonly judgedCurves?: ReadonlyMap<string, readonly CurvePoint[]>;
  /** errors/<variant>.jsonl of the variants that wrote one, in variant order */
  readonly errors?: readonly VariantErrors[];
}

/** The config as YAML, lists of scalars on one line as they are usually written (`threshold: [100, 90]`). */
export function configYaml(config: unknown): string {
  const doc = new Document(config ?? null);
  visit(doc, {
    Seq(_, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

function facts(rows: readonly (readonly [string, string])[]): string {
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length ? entries.map(([k, n]) => `${k}: ${n}`).join(', ') : 'none';
}

/** Whether a chart has anything to draw: one value or point that is not the reference's. */
export function hasData(spec: ChartSpec): boolean {
  return spec.series.some((s) => !s.reference && (s.kind === 'values' ? s.values.some((v) => v !== null) : s.points.length > 0));
}

/** A chart with nothing to draw is one line saying so, not an empty frame. */
function renderSection(s: FigureSection): string {
  const drawn = s.charts.filter(hasData);
  const empty = s.charts.filter((c) => !hasData(c));
  const charts = drawn.length ? `<div class="grid">${drawn.map(renderChartFigure).join('\n')}</div>` : '';
  const missing = empty.map((c) => `<p class="note empty-chart">${escapeHtml(`${c.title}: nothing to draw, no variant of this run has a value for it${emptyWhy(c)}.`)}</p>`).join('\n');
  return `<section id="${s.id}"><h2>${escapeHtml(s.title)}</h2><p class="note">${escapeHtml(s.note)}</p>${charts}${missing}</section>`;
}

/** Why a measure can be empty, where the reason is the usual one. */
function emptyWhy(c: ChartSpec): string {
  const axis = `${c.title} ${c.y.title}`.toLowerCase();
  const notRr = 'a detector whose scores are not resemblance estimates';
  if (axis.includes('average error') || axis.includes('correlation')) return ` (${notRr} has no average error or correlation)`;
  if (axis.includes('rr threshold')) return ` (${notRr} places no document at an RR threshold)`;
  return '';
}

function renderWarnings(run: RunRecord): string {
  const all = [...run.warnings, ...run.variants.flatMap((v) => v.warnings.map((w) => `${v.name}: ${w}`))];
  if (all.length === 0) return '<p class="note">No warnings.</p>';
  return `<ul class="warnings">${all.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`;
}

function renderSkips(run: RunRecord): string {
  const skips = run.corpus.skips;
  if (skips.length === 0) return '';
  return renderCsvTable(
    {
      header: ['kind', 'reason', 'file', 'offset', 'id', 'detail'],
      rows: skips.map((s) => [s.kind, s.reason, s.file, s.offset === undefined ? '' : String(s.offset), s.id ?? '', s.detail]),
    },
    `First ${skips.length} skipped or recovered records`,
  );
}

function renderProvenance(run: RunRecord): string {
  const { git, environment: env, corpus } = run;
  const commit = git.commit === null ? 'unknown (not a git checkout)' : `${git.commit}${git.dirty ? ' (uncommitted changes)' : ''}`;
  const { kind, ...backendRest } = run.backend;
  return `<section id="provenance"><h2>Provenance</h2>
${facts([
  ['run id', run.run_id],
  ['commit', commit],
  ['started', run.started_at],
  ['finished', run.finished_at],
  ['machine', `${env.cpu_model}, ${env.cpus} CPUs, ${env.memory_gb} GB, ${env.platform}/${env.arch}`],
  ['node', env.node],
  ['backend', Object.keys(backendRest).length ? `${kind} ${JSON.stringify(backendRest)}` : kind],
  ['config file', run.config_file],
  ['config hash', run.config_hash],
])}
<h3>Corpus</h3>
${facts([
  ['format', corpus.format],
  ['path', corpus.path ?? '(bundled)'],
  ['documents', String(corpus.documents)],
  ['records read', String(corpus.read)],
  ['skipped', counts(corpus.skipped)],
  ['recovered', counts(corpus.recovered)],
  ['reading time', `${corpus.read_s} s`],
])}
${renderSkips(run)}
<h3>Warnings</h3>
${renderWarnings(run)}
</section>`;
}

export function renderRunReport(run: RunRecord, tables: RunTables): string {
  const extra: ExtraTable[] = Object.entries(tables.extra).map(([file, csv]) => ({
    file,
    description: run.tables[file] ?? '',
    table: parseCsvTable(csv, file),
  }));
  const sections = runFigures(run, extra, tables.judgedCurves ?? new Map());
  const comparison = comparisonSection(run);
  const legend = renderLegend(run);
  const metrics = parseCsvTable(tables.metricsCsv, 'metrics.csv');
  const distribution = parseCsvTable(tables.distributionCsv, 'distribution.csv');
  const truth = run.variants.find((v) => v.ground_truth);
  const summary = `${run.corpus.documents} documents (${run.corpus.format}) · ${run.variants.length} variants${truth ? `, ground truth ${truth.name}` : ''} · ${run.backend.kind} backend · ${run.started_at}`;

  const sharedText = renderSharedText(tables.spanExamples ?? []);
  const errorFiles = tables.errors ?? [];
  const errorBrowser = renderErrorBrowser(errorFiles, run.evaluate.threshold);
  const errorData = errorBrowser ? errorBrowserJson(errorFiles) : undefined;
  const nav = [
    ...(comparison.charts.length > 0 || comparison.html.includes('<table') ? [['comparison', 'Comparison'] as const] : []),
    ...sections.map((s) => [s.id, s.title] as const),
    ...(sharedText ? [['shared-text', 'Shared text'] as const] : []),
    ...(errorBrowser ? [['errors', 'Errors'] as const] : []),
    ['tables', 'Tables'] as const,
    ['config', 'Config'] as const,
    ...(legend ? [['columns', 'Columns'] as const] : []),
    ['provenance', 'Provenance'] as const,
  ]
    .map(([id, title]) => `<a href="#${id}">${escapeHtml(title)}</a>`)
    .join('');
  const options = QUALITY_MEASURES.map((q) => `<option value="${escapeHtml(q.key)}">${escapeHtml(q.label)}</option>`).join('');
  const selector = comparison.html.includes('<table') ? `<label class="measure" for="measure">Quality</label><select id="measure">${options}</select> ` : '';

  const body = `<header>
<h1>${escapeHtml(run.experiment)}</h1>
${run.description ? `<p>${escapeHtml(run.description)}</p>` : ''}
<p>${escapeHtml(summary)}</p>
</header>
<nav>${selector}${nav}</nav>
<main>
${comparison.html}
${sections.map(renderSection).join('\n')}
${sharedText}
${errorBrowser}
<section id="tables"><h2>Tables</h2>
<h3>metrics.csv</h3>
${renderCsvTable(metrics)}
<h3>distribution.csv</h3>
${renderCsvTable(distribution)}
${extra.map((t) => `<h3>${escapeHtml(t.file)}</h3><p class="note">${escapeHtml(t.description)}</p>${renderCsvTable(t.table)}`).join('\n')}
</section>
<section id="config"><h2>Config</h2>
<p class="note">${escapeHtml(`${run.config_file}, resolved (hash ${run.config_hash})`)}</p>
<pre>${escapeHtml(configYaml(run.config))}</pre>
</section>
${legend}
${renderProvenance(run)}
</main>`;

  return renderPage({
    title: `${run.experiment} — ${run.run_id}`,
    body,
    charts: [...comparison.charts, ...sections.flatMap((s) => s.charts.filter(hasData))].map(embed),
    data: { 'comparison-data': comparison.byMeasure, ...(errorData ? { 'error-data': errorData.variants, 'error-texts': errorData.texts } : {}) },
    script: interactiveScript('comparison-data') + (errorData ? errorBrowserScript() : ''),
    ...(sharedText || errorData ? { style: (sharedText ? SHARED_TEXT_STYLE : '') + (errorData ? ERROR_BROWSER_STYLE : '') } : {}),
  });
}
