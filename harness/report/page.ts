/**
 * The shell both reports share: styles, chart.js inlined, chart configs as escaped JSON data and
 * a small script that draws them. One self-contained file: no network request of any kind.
 */
import { chartConfig, type ChartSpec } from './charts.ts';
import { chartJsSource } from './chartjs-source.ts';
import { escapeHtml, jsonForScript } from './escape.ts';

const STYLE = `
:root { color-scheme: light; --ink: #1b1f23; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --band: #f6f8fa; --accent: #0072B2; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: var(--bg); }
header { padding: 20px 28px 12px; border-bottom: 1px solid var(--line); background: var(--band); }
header h1 { margin: 0 0 4px; font-size: 22px; overflow-wrap: anywhere; }
header p { margin: 2px 0; color: var(--muted); overflow-wrap: anywhere; }
nav { padding: 8px 28px; border-bottom: 1px solid var(--line); font-size: 13px; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1400px; }
section { margin-top: 22px; }
h2 { font-size: 18px; margin: 0 0 4px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; overflow-wrap: anywhere; }
p.note { margin: 4px 0 10px; color: var(--muted); }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 14px; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: #fff; }
.canvas-box { position: relative; width: 100%; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 12.5px; margin: 4px 0 12px; }
caption { text-align: left; color: var(--muted); padding: 2px 0 6px; }
th, td { border: 1px solid var(--line); padding: 3px 7px; text-align: left; vertical-align: top; white-space: nowrap; }
td.text { white-space: normal; overflow-wrap: anywhere; min-width: 16em; }
th { background: var(--band); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
pre { background: var(--band); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; overflow-x: auto; font-size: 12.5px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 6px 0 12px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
ul.warnings li { overflow-wrap: anywhere; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable[aria-sort="ascending"]::after { content: " \\25B2"; }
th.sortable[aria-sort="descending"]::after { content: " \\25BC"; }
label.measure { font-weight: 600; margin-right: 6px; }
`;

/** Draws every chart listed in #chart-data. Tooltips name the variant when a point carries one. */
const DRAW_SCRIPT = `
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('chart-data').textContent);
  Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
  function label(ctx) {
    var raw = ctx.raw;
    var name = raw && typeof raw === 'object' && typeof raw.name === 'string' ? raw.name + ' ' : '';
    if (raw && typeof raw === 'object' && 'x' in raw) return ctx.dataset.label + ': ' + name + '(' + ctx.parsed.x + ', ' + ctx.parsed.y + ')';
    return ctx.dataset.label + ': ' + ctx.formattedValue;
  }
  // Shared with page scripts that redraw a chart (the leaderboard's measure selector).
  window.benchDraw = function (id, config) {
    config.options.plugins.tooltip = { callbacks: { label: label } };
    if (window.benchCharts[id]) window.benchCharts[id].destroy();
    window.benchCharts[id] = new Chart(document.getElementById(id), config);
  };
  window.benchCharts = {};
  specs.forEach(function (s) { window.benchDraw(s.id, s.config); });
})();
`;

export interface EmbeddedChart {
  readonly id: string;
  readonly config: Record<string, unknown>;
}

export function embed(spec: ChartSpec): EmbeddedChart {
  return { id: spec.id, config: chartConfig(spec) };
}

/** Pixel height for a chart: horizontal bars grow with their bars so labels stay legible. */
export function chartHeight(spec: ChartSpec): number {
  if (spec.type === 'bars' && spec.horizontal) {
    const bars = spec.labels.length * Math.max(1, spec.series.length);
    return Math.min(900, Math.max(260, 90 + bars * 16));
  }
  return 300;
}

/** A chart's frame; `id` and the title are the only things placed in the markup (title escaped). */
export function renderChartFigure(spec: ChartSpec): string {
  return `<figure class="chart"><div class="canvas-box" style="height:${chartHeight(spec)}px"><canvas id="${escapeHtml(spec.id)}" role="img" aria-label="${escapeHtml(spec.title)}"></canvas></div></figure>`;
}

export interface PageParts {
  readonly title: string;
  /** already-escaped HTML */
  readonly body: string;
  readonly charts: readonly EmbeddedChart[];
  /** extra JSON data blocks by element id (escaped here) */
  readonly data?: Record<string, unknown>;
  /** page-specific script, run after the charts are drawn (static code, never user data) */
  readonly script?: string;
  /** page-specific styles (static, never user data) */
  readonly style?: string;
}

export function renderPage(p: PageParts): string {
  const dataBlocks = Object.entries(p.data ?? {})
    .map(([id, value]) => `<script type="application/json" id="${escapeHtml(id)}">${jsonForScript(value)}</script>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(p.title)}</title>
<style>${STYLE}${p.style ?? ''}</style>
</head>
<body>
${p.body}
<script>${chartJsSource()}</script>
<script type="application/json" id="chart-data">${jsonForScript(p.charts)}</script>
${dataBlocks}
<script>${DRAW_SCRIPT}</script>
${p.script ? `<script>${p.script}</script>` : ''}
</body>
</html>
`;
}
