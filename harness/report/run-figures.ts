/**
 * The figures of a run's report, after the thesis (Nikkhoo 2010): documents with a
 * near-duplicate at each RR threshold (Figures 3.4, 3.5, 3.7), agreement with the ground truth
 * against the swept parameter (Figures 3.6, 3.8), the reduction of MR#1 output pairs (Figure
 * 3.9), runtime and cost, and bars for the extra TREC tables. Pure: a RunRecord in, chart specs out.
 */
import { timeLine } from '../results/summary.ts';
import type { RunRecord, VariantRecord } from '../results/types.ts';
import type { ChartSpec, Series } from './charts.ts';
import { isNumericTable, type CsvTable } from './csv-table.ts';
import { runGroups, sweepLines, sweptParameters, type RunGroup } from './run-groups.ts';
import { sizeGroupSection } from './size-group-figures.ts';
import { clustersSection, judgmentsSection } from './second-truth-figures.ts';
import type { CurvePoint } from '../evaluate/judgments.ts';

export interface ExtraTable {
  readonly file: string;
  readonly description: string;
  readonly table: CsvTable;
}

export interface FigureSection {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  readonly charts: readonly ChartSpec[];
}

type AgreementKey = 'avg_error' | 'correlation' | 'recall_docs' | 'precision_docs' | 'recall_pairs' | 'precision_pairs';

const measureOf = (v: VariantRecord, key: string): number | null => v.measures[key] ?? null;

// Recall and precision live in [0, 1] and correlation cannot exceed 1: fixed ends keep a flat 1.0 from being drawn mid-chart.
const AGREEMENT: readonly { readonly key: AgreementKey; readonly title: string; readonly min?: number; readonly max?: number }[] = [
  { key: 'avg_error', title: 'Average error', min: 0 },
  { key: 'correlation', title: 'Correlation', max: 1 },
  { key: 'recall_docs', title: 'Recall (documents)', min: 0, max: 1 },
  { key: 'precision_docs', title: 'Precision (documents)', min: 0, max: 1 },
  { key: 'recall_pairs', title: 'Recall (pairs)', min: 0, max: 1 },
  { key: 'precision_pairs', title: 'Precision (pairs)', min: 0, max: 1 },
];

/** Extra tables with more rows or columns than this are shown as numbers only. */
const MAX_BAR_ROWS = 60;
const MAX_BAR_SERIES = 12;

class Ids {
  private n = 0;
  next(): string {
    this.n += 1;
    return `chart-${this.n}`;
  }
}

const rrLabel = (t: number): string => `RR ≥ ${t}`;
const pct = { title: '% of documents', scale: 'linear', min: 0 } as const;

function distributionSection(run: RunRecord, groups: readonly RunGroup[], ids: Ids): FigureSection {
  const labels = run.evaluate.distribution.map(rrLabel);
  const truth = run.variants.filter((v) => v.ground_truth);
  const charts: ChartSpec[] = [];
  const t0 = truth[0];
  if (t0) {
    charts.push({
      id: ids.next(),
      title: `Documents with a near-duplicate: ${t0.name} (ground truth, Figure 3.4)`,
      type: 'bars',
      horizontal: true,
      labels,
      series: [{ kind: 'values', label: t0.name, values: t0.distribution }],
      x: pct,
      y: { title: 'resemblance', scale: 'category' },
    });
  }
  const asLine = (v: VariantRecord): Series => ({ kind: 'values', label: v.name, values: v.distribution, reference: v.ground_truth });
  // Without run groups (a run of the ground truth alone) there is nothing to compare against.
  for (const g of groups) {
    charts.push({
      id: ids.next(),
      title: `Documents with a near-duplicate at each RR threshold: ${g.label} (Figures 3.5, 3.7)`,
      type: 'lines',
      labels,
      series: [...truth.map(asLine), ...g.variants.map(asLine)],
      x: { title: 'resemblance threshold', scale: 'category' },
      y: pct,
    });
  }
  return {
    id: 'distribution',
    title: 'Near-duplicates at each resemblance threshold',
    note: 'Percentage of documents that have a near-duplicate at or above each RR threshold (distribution.csv); the ground truth is dashed.',
    charts,
  };
}

function agreementAgainstSweep(run: RunRecord, groups: readonly RunGroup[], ids: Ids): FigureSection | undefined {
  const params = sweptParameters(run.variants.filter((v) => !v.ground_truth));
  const compared = run.variants.filter((v) => !v.ground_truth);
  if (compared.length === 0) return undefined;
  const charts: ChartSpec[] = [];
  if (params.length === 0) {
    // No sweep: one grouped bar chart of the measures per variant.
    charts.push({
      id: ids.next(),
      title: 'Agreement with the ground truth per variant',
      type: 'bars',
      horizontal: false,
      labels: compared.map((v) => v.name),
      series: AGREEMENT.map((m) => ({ kind: 'values', label: m.title, values: compared.map((v) => measureOf(v, m.key)) })),
      x: { title: 'variant', scale: 'category' },
      y: { title: 'value', scale: 'linear', min: 0 },
    });
  }
  for (const param of params) {
    const lines = sweepLines(groups, param);
    const values = lines.flatMap((l) => l.variants.map((v) => v.swept[param]));
    const numeric = values.every((x) => typeof x === 'number');
    const categories = [...new Set(values.map((x) => String(x)))];
    for (const m of AGREEMENT) {
      const title = `${m.title} against ${param} (Figures 3.6, 3.8)`;
      const y = { title: m.title.toLowerCase(), scale: 'linear', ...(m.min === undefined ? {} : { min: m.min }), ...(m.max === undefined ? {} : { max: m.max }) } as const;
      if (numeric) {
        charts.push({
          id: ids.next(),
          title,
          type: 'xy',
          series: lines.map((l) => ({
            kind: 'points',
            label: l.label,
            line: true,
            points: l.variants.flatMap((v) => {
              const value = measureOf(v, m.key);
              return value === null ? [] : [{ x: v.swept[param] as number, y: value, name: v.name }];
            }),
          })),
          x: { title: param, scale: 'linear' },
          y,
        });
      } else {
        charts.push({
          id: ids.next(),
          title,
          type: 'lines',
          labels: categories,
          series: lines.map((l) => ({
            kind: 'values',
            label: l.label,
            values: categories.map((c) => (() => { const v = l.variants.find((x) => String(x.swept[param]) === c); return v ? measureOf(v, m.key) : null; })()),
          })),
          x: { title: param, scale: 'category' },
          y,
        });
      }
    }
  }
  return {
    id: 'agreement',
    title: 'Agreement with the ground truth',
    note: `Average error and correlation of the RR over the pairs scoring at least ${run.evaluate.min_score}; recall and precision at RR ≥ ${run.evaluate.threshold}, of documents (the thesis' reading) and of pairs (Ye et al.).`,
    charts,
  };
}

/** The figures the run's adapters add (run.json `figures`), over each adapter's own variants or tables. */
function adapterSections(run: RunRecord, extra: readonly ExtraTable[], ids: Ids): FigureSection[] {
  return run.figures.flatMap((f) => {
    const c = f.chart;
    const charts: ChartSpec[] = [];
    if (c.kind === 'bars-per-variant') {
      const rows = run.variants.filter((v) => !v.ground_truth && v.algorithm === f.algorithm && measureOf(v, c.measure) !== null);
      if (rows.length > 0) {
        charts.push({
          id: ids.next(),
          title: c.title,
          type: 'bars',
          horizontal: true,
          labels: rows.map((v) => v.name),
          series: [{ kind: 'values', label: c.legend, values: rows.map((v) => measureOf(v, c.measure)) }],
          x: { title: c.axis, scale: 'linear' },
          y: { title: 'variant', scale: 'category' },
        });
      }
    } else {
      // One chart per table of the folder that the adapter's variants wrote.
      const names = new Set(run.variants.filter((v) => v.algorithm === f.algorithm).map((v) => `${c.folder}/${v.name}.csv`));
      for (const t of extra.filter((x) => names.has(x.file))) {
        const xi = t.table.header.indexOf(c.x);
        if (xi < 0) continue;
        const num = (cell: string | undefined): number | null => (cell === undefined || cell === '' ? null : Number(cell));
        charts.push({
          id: ids.next(),
          title: `${c.title}: ${t.file.slice(c.folder.length + 1, -'.csv'.length)}`,
          type: 'xy',
          series: c.series
            .map((col) => ({ col, k: t.table.header.indexOf(col) }))
            .filter(({ k }) => k >= 0)
            .map(({ col, k }) => ({
              kind: 'points' as const,
              label: col,
              line: true,
              points: t.table.rows.flatMap((r) => {
                const x = num(r[xi]);
                const y = num(r[k]);
                return x === null || y === null ? [] : [{ x, y }];
              }),
            })),
          x: { title: c.xAxis, scale: 'linear' },
          y: { title: c.axis, scale: 'linear', min: 0 },
        });
      }
    }
    return charts.length === 0 ? [] : [{ id: f.id, title: f.title, note: f.note, charts }];
  });
}

function costSection(run: RunRecord, ids: Ids): FigureSection {
  const vs = run.variants;
  const labels = vs.map((v) => v.name);
  const charts: ChartSpec[] = [
    {
      id: ids.next(),
      title: 'Runtime per variant',
      type: 'bars',
      horizontal: true,
      labels,
      series: [
        { kind: 'values', label: 'wall clock, s', values: vs.map((v) => measureOf(v, 'runtime_s')) },
        { kind: 'values', label: 'CPU, s', values: vs.map((v) => measureOf(v, 'cpu_s')) },
      ],
      x: { title: 'seconds', scale: 'linear', min: 0 },
      y: { title: 'variant', scale: 'category' },
    },
  ];
  const anyCost = vs.some((v) => (measureOf(v, 'cost_usd') ?? 0) > 0);
  if (anyCost) {
    charts.push({
      id: ids.next(),
      title: 'Cost per variant',
      type: 'bars',
      horizontal: true,
      labels,
      series: [{ kind: 'values', label: 'cost, USD', values: vs.map((v) => measureOf(v, 'cost_usd')) }],
      x: { title: 'USD', scale: 'linear', min: 0 },
      y: { title: 'variant', scale: 'category' },
    });
  }
  return {
    id: 'cost',
    title: 'Runtime and cost',
    note: anyCost
      ? `${timeLine(run)} on the ${run.backend.kind} backend.`
      : `${timeLine(run)} on the ${run.backend.kind} backend; no variant had a cost (0 USD).`,
    charts,
  };
}

function extraSection(extra: readonly ExtraTable[], ids: Ids): FigureSection | undefined {
  const charts: ChartSpec[] = [];
  for (const t of extra) {
    const { header, rows } = t.table;
    if (!isNumericTable(t.table) || rows.length > MAX_BAR_ROWS || header.length - 1 > MAX_BAR_SERIES) continue;
    charts.push({
      id: ids.next(),
      title: `${t.file}: ${t.description}`,
      type: 'bars',
      horizontal: true,
      labels: rows.map((r) => r[0] ?? ''),
      series: header.slice(1).map((h, j) => ({
        kind: 'values',
        label: h,
        values: rows.map((r) => {
          const c = r[j + 1] ?? '';
          return c === '' ? null : Number(c);
        }),
      })),
      x: { title: 'value', scale: 'linear', min: 0 },
      y: { title: header[0] ?? '', scale: 'category' },
    });
  }
  // Tables that are not bar-shaped are shown under Tables only.
  if (charts.length === 0) return undefined;
  return {
    id: 'trec',
    title: 'Experiment tables',
    note: 'Tables the experiment computed beside metrics.csv, drawn as bars (Figure 3.4 style); the numbers are under Tables.',
    charts,
  };
}

export function runFigures(full: RunRecord, extra: readonly ExtraTable[], curves: ReadonlyMap<string, readonly CurvePoint[]> = new Map()): FigureSection[] {
  const ids = new Ids();
  // A variant's trials and calibration runs are rows of the tables, not points of the figures.
  const run: RunRecord = { ...full, variants: full.variants.filter((v) => v.part_of === undefined) };
  const groups = runGroups(run.variants);
  // Tables drawn by an adapter's figure are not drawn again as bars.
  const drawn = new Set(run.figures.flatMap((f) => (f.chart.kind === 'lines-per-table' ? [`${f.chart.folder}/`] : [])));
  const plain = extra.filter((t) => ![...drawn].some((d) => t.file.startsWith(d)));
  return [
    distributionSection(run, groups, ids),
    agreementAgainstSweep(run, groups, ids),
    sizeGroupSection(run, run.variants, () => ids.next()),
    judgmentsSection(run, curves, () => ids.next()),
    clustersSection(run, () => ids.next()),
    ...adapterSections(run, extra, ids),
    costSection(run, ids),
    extraSection(plain, ids),
  ].filter((s): s is FigureSection => s !== undefined);
}
