/**
 * The cost curve: the runs of one experiment over corpora of different sizes (configs/scale.yaml
 * at 10,000, 100,000 and 1,000,000 documents) put together, each variant's runtime and peak
 * memory against the number of documents on log-log axes. A straight line there is a power law,
 * runtime ≈ c·N^k; the least-squares slope k of each variant is shown, and what it predicts at
 * ten times the largest corpus, so that a user can extrapolate to their collection (and set it
 * against `bench run --backend emr --dry-run --docs N`).
 */
import type { RunRecord } from '../results/types.ts';
import type { ChartSpec, Series, XYPoint } from './charts.ts';
import { escapeHtml } from './escape.ts';
import { renderChartFigure } from './page.ts';
import { grouped } from '../format.ts';

export interface CurveEntry {
  readonly run: RunRecord;
  readonly reportHref: string;
}

export interface CurvePoint extends XYPoint {
  /** the run the point comes from */
  readonly runId: string;
}

/** One variant's values of one measure, by number of documents. */
export interface VariantCurve {
  readonly variant: string;
  readonly points: readonly CurvePoint[];
}

export interface ScaleCurve {
  readonly experiment: string;
  /** the backend the runs share, e.g. `local, memory_mb 8192, 2 workers` */
  readonly backend: string;
  /** distinct corpus sizes, ascending */
  readonly documents: readonly number[];
  readonly entries: readonly CurveEntry[];
  /** `memory_mb` of the local backend when every run has the same */
  readonly budgetMb: number | null;
}

/** How a curve names its backend: the kind, and the settings that change the figures. */
function backendLabel(b: RunRecord['backend']): string {
  const parts = [b.kind];
  if (typeof b['memory_mb'] === 'number') parts.push(`memory_mb ${b['memory_mb']}`);
  if (typeof b['workers'] === 'number') parts.push(`${b['workers']} worker${b['workers'] === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/**
 * Runs of one experiment on one backend (same kind, memory budget and threads) over at least
 * two corpus sizes, in order of first appearance: a curve compares sizes, nothing else.
 */
export function scaleCurves(entries: readonly CurveEntry[]): ScaleCurve[] {
  const groups = new Map<string, { experiment: string; backend: string; budget: unknown; list: CurveEntry[] }>();
  for (const e of entries) {
    const backend = backendLabel(e.run.backend);
    const key = JSON.stringify([e.run.experiment, backend]);
    const g = groups.get(key);
    if (g) g.list.push(e);
    else groups.set(key, { experiment: e.run.experiment, backend, budget: e.run.backend['memory_mb'], list: [e] });
  }
  const curves: ScaleCurve[] = [];
  for (const g of groups.values()) {
    const documents = [...new Set(g.list.map((e) => e.run.corpus.documents))].sort((a, b) => a - b);
    if (documents.length < 2) continue;
    curves.push({ experiment: g.experiment, backend: g.backend, documents, entries: g.list, budgetMb: typeof g.budget === 'number' ? g.budget : null });
  }
  return curves;
}

/**
 * Each variant's points of `measure` (runs in order; several runs at one size give several
 * points); `positive` leaves out zeros, which a logarithmic axis cannot show.
 */
export function variantCurves(curve: ScaleCurve, measure: string, positive = false): VariantCurve[] {
  const byVariant = new Map<string, CurvePoint[]>();
  for (const { run } of curve.entries) {
    for (const v of run.variants) {
      const y = v.measures[measure];
      if (typeof y !== 'number' || !(y >= 0) || (positive && y === 0)) continue;
      byVariant.set(v.name, [...(byVariant.get(v.name) ?? []), { x: run.corpus.documents, y, name: `${v.name} · ${run.run_id}`, runId: run.run_id }]);
    }
  }
  return [...byVariant].map(([variant, points]) => ({ variant, points: [...points].sort((a, b) => a.x - b.x) }));
}

/** Least squares of log10 y on log10 x: y ≈ 10^intercept · x^slope; null with fewer than two sizes. */
export function powerFit(points: readonly XYPoint[]): { slope: number; intercept: number } | null {
  if (new Set(points.map((p) => p.x)).size < 2) return null;
  const xs = points.map((p) => Math.log10(p.x));
  const ys = points.map((p) => Math.log10(p.y));
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = ys.reduce((s, y) => s + y, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * ((ys[i] as number) - my);
    sxx += (x - mx) ** 2;
  });
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

export function predict(fit: { slope: number; intercept: number }, x: number): number {
  return 10 ** (fit.intercept + fit.slope * Math.log10(x));
}

export interface CurveMeasure {
  readonly key: string;
  readonly title: string;
  readonly axis: string;
}

const MEASURES: readonly CurveMeasure[] = [
  { key: 'runtime_s', title: 'Runtime against documents (log-log)', axis: 'Runtime, s' },
  { key: 'peak_rss_mb', title: 'Peak memory against documents (log-log)', axis: 'Peak memory of the process, MB' },
];

export function scaleChart(id: string, curve: ScaleCurve, measure: CurveMeasure): ChartSpec {
  const series: Series[] = variantCurves(curve, measure.key, true).map((c) => {
    const fit = powerFit(c.points);
    return { kind: 'points', label: fit ? `${c.variant} (∝ N^${fit.slope.toFixed(2)})` : c.variant, line: true, points: c.points };
  });
  if (measure.key === 'peak_rss_mb' && curve.budgetMb !== null) {
    const lo = curve.documents[0] as number;
    const hi = curve.documents[curve.documents.length - 1] as number;
    series.push({ kind: 'points', label: `memory_mb ${curve.budgetMb}`, line: true, reference: true, points: [{ x: lo, y: curve.budgetMb }, { x: hi, y: curve.budgetMb }] });
  }
  return {
    id,
    title: `${curve.experiment} (${curve.backend}): ${measure.title}`,
    type: 'xy',
    series,
    x: { title: 'Documents', scale: 'logarithmic' },
    y: { title: measure.axis, scale: 'logarithmic' },
  };
}

function cell(x: number | undefined, digits: number): string {
  return x === undefined ? '<td class="num"></td>' : `<td class="num" data-v="${x}">${escapeHtml(x.toFixed(digits))}</td>`;
}

/** A table a variant a row: the measures at each size, the slopes, and the extrapolation. */
function renderTable(curve: ScaleCurve): string {
  const sizes = curve.documents;
  const largest = sizes[sizes.length - 1] as number;
  const runtime = variantCurves(curve, 'runtime_s', true);
  const memory = new Map(variantCurves(curve, 'peak_rss_mb', true).map((c) => [c.variant, c]));
  const cpu = new Map(variantCurves(curve, 'cpu_s').map((c) => [c.variant, c]));
  const spill = new Map(variantCurves(curve, 'spill_mb').map((c) => [c.variant, c]));
  const at = (c: VariantCurve | undefined, n: number): number | undefined => {
    const ps = (c?.points ?? []).filter((p) => p.x === n);
    return ps.length === 0 ? undefined : Math.min(...ps.map((p) => p.y));
  };
  const head = ['Variant', ...sizes.map((n) => `Runtime at ${grouped(n)}, s`), `CPU at ${grouped(largest)}, s`, `Peak at ${grouped(largest)}, MB`, `Temporary files at ${grouped(largest)}, MB`, 'Runtime slope', 'Memory slope', `Runtime at ${grouped(10 * largest)} (extrapolated), s`];
  const rows = runtime.map((c) => {
    const fit = powerFit(c.points);
    const mfit = powerFit(memory.get(c.variant)?.points ?? []);
    return (
      `<tr><td>${escapeHtml(c.variant)}</td>` +
      sizes.map((n) => cell(at(c, n), 2)).join('') +
      cell(at(cpu.get(c.variant), largest), 1) +
      cell(at(memory.get(c.variant), largest), 0) +
      cell(at(spill.get(c.variant), largest), 0) +
      cell(fit?.slope, 2) +
      cell(mfit?.slope, 2) +
      cell(fit ? predict(fit, 10 * largest) : undefined, 0) +
      '</tr>'
    );
  });
  return `<div class="table-wrap"><table class="sortable"><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

/** The sections of the cost curves, with their charts; chart ids are `${idPrefix}-N`. */
export function renderScaleSections(curves: readonly ScaleCurve[], idPrefix: string): { html: string; charts: ChartSpec[] } {
  const charts: ChartSpec[] = [];
  const html = curves.map((curve, i) => {
    const specs = MEASURES.map((m, j) => scaleChart(`${idPrefix}-${i + 1}-${j + 1}`, curve, m));
    charts.push(...specs);
    const sizes = curve.documents.map((n) => grouped(n)).join(', ');
    return `<section id="${escapeHtml(`${idPrefix}-${i + 1}`)}"><h2>${escapeHtml(`Cost curve: ${curve.experiment} (${curve.backend})`)}</h2>
<p class="note">${escapeHtml(`${curve.entries.length} runs over ${sizes} documents. Each line is a variant; on log-log axes a straight line is a power law, and its slope (shown in the legend) is the exponent: 1 is linear in the number of documents. The last column extends that line to ten times the largest corpus; compare it with \`bench run <config> --backend emr --dry-run --docs N\`.`)}${curve.budgetMb !== null ? escapeHtml(` The dashed line is the memory budget, memory_mb ${curve.budgetMb}.`) : ''}</p>
<div class="grid">${specs.map(renderChartFigure).join('\n')}</div>
${renderTable(curve)}
</section>`;
  });
  return { html: html.join('\n'), charts };
}
