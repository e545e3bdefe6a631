/**
 * Chart descriptions the reports embed as JSON, and their translation into chart.js configs.
 * Everything here is plain data: the page's script only calls `new Chart(canvas, config)`, so
 * what a chart shows is decided (and tested) in TypeScript.
 */

export interface Axis {
  readonly title: string;
  readonly scale: 'category' | 'linear' | 'logarithmic';
  readonly min?: number;
  readonly max?: number;
}

export interface XYPoint {
  readonly x: number;
  readonly y: number;
  /** shown in the tooltip (variant name) */
  readonly name?: string;
}

/** A `reference` series (the ground truth, a Pareto frontier) is drawn black and dashed. */
export type Series =
  | { readonly kind: 'values'; readonly label: string; readonly values: readonly (number | null)[]; readonly reference?: boolean }
  | { readonly kind: 'points'; readonly label: string; readonly points: readonly XYPoint[]; readonly line: boolean; readonly reference?: boolean };

/** `bars` and `lines` share one list of category labels; `xy` plots points on two numeric axes. */
export type ChartSpec =
  | {
      readonly id: string;
      readonly title: string;
      readonly type: 'bars';
      readonly horizontal: boolean;
      readonly labels: readonly string[];
      readonly series: readonly Series[];
      readonly x: Axis;
      readonly y: Axis;
    }
  | {
      readonly id: string;
      readonly title: string;
      readonly type: 'lines';
      readonly labels: readonly string[];
      readonly series: readonly Series[];
      readonly x: Axis;
      readonly y: Axis;
    }
  | {
      readonly id: string;
      readonly title: string;
      readonly type: 'xy';
      readonly series: readonly Series[];
      readonly x: Axis;
      readonly y: Axis;
    };

/** Okabe–Ito, colour-blind safe, then a few more for long sweeps. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000', '#999999', '#882255', '#44AA99', '#117733'];

export function colour(i: number): string {
  return PALETTE[i % PALETTE.length] ?? '#000000';
}

function axisConfig(a: Axis): Record<string, unknown> {
  return {
    type: a.scale,
    title: { display: true, text: a.title },
    // chart.js writes a small cost as 1e-6 and skips category labels it finds crowded: numbers
    // as people write them (Intl options, merged into chart.js's own), and every label shown.
    ticks: a.scale === 'category' ? { autoSkip: false } : { format: { notation: 'standard', maximumSignificantDigits: 3 } },
    ...(a.min === undefined ? {} : { min: a.min }),
    ...(a.max === undefined ? {} : { max: a.max }),
  };
}

function datasetConfig(s: Series, i: number, chartType: ChartSpec['type']): Record<string, unknown> {
  const c = s.reference ? '#000000' : colour(i);
  // A reference line is drawn without markers and shown as a line in the legend.
  const dash = s.reference ? { borderDash: [6, 4], pointRadius: 0, pointStyle: 'line', borderWidth: 2 } : {};
  if (s.kind === 'values') {
    const bar = chartType === 'bars';
    return { label: s.label, data: s.values, borderColor: c, backgroundColor: bar ? `${c}cc` : c, spanGaps: true, ...dash };
  }
  return {
    type: s.line ? 'line' : 'scatter',
    label: s.label,
    data: s.points,
    borderColor: c,
    backgroundColor: c,
    showLine: s.line,
    pointRadius: s.line ? 2 : 4,
    ...dash,
  };
}

/** The chart.js config for a spec (JSON only: no functions, so it can be embedded as data). */
export function chartConfig(spec: ChartSpec): Record<string, unknown> {
  const type = spec.type === 'bars' ? 'bar' : spec.type === 'lines' ? 'line' : 'scatter';
  // Reference series take no palette slot, so a variant keeps its colour with or without them.
  let slot = 0;
  const datasets = spec.series.map((s) => datasetConfig(s, s.reference ? 0 : slot++, spec.type));
  const data: Record<string, unknown> = { datasets };
  if (spec.type !== 'xy') data['labels'] = spec.labels;
  const horizontal = spec.type === 'bars' && spec.horizontal;
  return {
    type,
    data,
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        title: { display: true, text: spec.title },
        // Point styles in the legend: circles for variants, a line for the dashed references.
        legend: { display: spec.series.length > 1, position: 'bottom', labels: spec.type === 'bars' ? {} : { usePointStyle: true } },
      },
      scales: { x: axisConfig(spec.x), y: axisConfig(spec.y) },
    },
  };
}

/** A numeric axis: logarithmic when all values are positive and span more than `decades` decades. */
export function numericScale(values: readonly number[], decades = 1.5): 'linear' | 'logarithmic' {
  if (values.length === 0 || values.some((v) => !(v > 0))) return 'linear';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return Math.log10(hi / lo) > decades ? 'logarithmic' : 'linear';
}
