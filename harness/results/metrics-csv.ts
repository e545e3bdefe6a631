/**
 * metrics.csv and distribution.csv from the variant records (results/types.ts): the columns
 * come from the run's measures (results/measures.ts), not from any detector's name.
 */
import { toCsv, type Cell } from './csv.ts';
import { CSV_DECIMALS, type MeasureInfo } from './measures.ts';
import { METRICS_LEAD, type VariantRecord } from './types.ts';

/** Union of keys in first-seen order, so columns are stable for a config. */
function orderedKeys(objs: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const o of objs) for (const k of Object.keys(o)) seen.add(k);
  return [...seen];
}

function measureCell(v: VariantRecord, m: MeasureInfo): Cell {
  const x = v.measures[m.key] ?? null;
  const decimals = CSV_DECIMALS[m.key];
  return x === null || decimals === undefined ? x : x.toFixed(decimals);
}

export function metricsCsv(experiment: string, measures: readonly MeasureInfo[], records: readonly VariantRecord[]): string {
  const swept = orderedKeys(records.map((r) => r.swept));
  const counterCols = orderedKeys(
    records.map((r) =>
      Object.fromEntries(Object.entries(r.counters).flatMap(([g, names]) => Object.keys(names).map((n) => [`${g}.${n}`, 1]))),
    ),
  );
  const header = [...METRICS_LEAD, ...swept, ...measures.map((m) => m.key), ...counterCols];
  const rows = records.map((r): Cell[] => [
    experiment,
    r.name,
    r.algorithm,
    ...swept.map((k) => r.swept[k] ?? null),
    ...measures.map((m) => measureCell(r, m)),
    ...counterCols.map((c) => {
      const dot = c.indexOf('.');
      return r.counters[c.slice(0, dot)]?.[c.slice(dot + 1)] ?? 0;
    }),
  ]);
  return toCsv(header, rows);
}

export function distributionCsv(thresholds: readonly number[], records: readonly VariantRecord[]): string {
  const header = ['rr_threshold', ...records.map((r) => r.name)];
  const rows = thresholds.map((t, i): Cell[] => [t, ...records.map((r) => r.distribution[i] ?? null)]);
  return toCsv(header, rows);
}
