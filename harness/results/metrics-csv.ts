/**
 * metrics.csv and distribution.csv from the variant records (results/types.ts): the columns
 * come from the run's measures (results/measures.ts), not from any detector's name.
 */
import { readCounter, type CounterRef } from '../../contract/index.ts';
import { toCsv, type Cell } from '../csv.ts';
import { CSV_DECIMALS, type MeasureInfo } from './measures.ts';
import { METRICS_LEAD, type VariantRecord } from './types.ts';

/** Union of keys in first-seen order, so columns are stable for a config. */
function orderedKeys(objs: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const o of objs) for (const k of Object.keys(o)) seen.add(k);
  return [...seen];
}

/** Byte-order comparison: the column order must not depend on the locale. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every counter any variant has, sorted by group then name, so the columns do not depend on
 * which variant or counter happened to come first.
 */
function counterColumns(records: readonly VariantRecord[]): CounterRef[] {
  const groups = new Map<string, Set<string>>();
  for (const r of records) {
    for (const [g, names] of Object.entries(r.counters)) {
      const set = groups.get(g) ?? new Set<string>();
      for (const n of Object.keys(names)) set.add(n);
      groups.set(g, set);
    }
  }
  return [...groups.keys()].sort(byteOrder).flatMap((group) => [...(groups.get(group) ?? [])].sort(byteOrder).map((name) => ({ group, name })));
}

function measureCell(v: VariantRecord, m: MeasureInfo): Cell {
  const x = v.measures[m.key] ?? null;
  const decimals = CSV_DECIMALS[m.key];
  return x === null || decimals === undefined ? x : x.toFixed(decimals);
}

export function metricsCsv(experiment: string, measures: readonly MeasureInfo[], records: readonly VariantRecord[]): string {
  const swept = orderedKeys(records.map((r) => r.swept));
  const counterCols = counterColumns(records);
  const header = [...METRICS_LEAD, ...swept, ...measures.map((m) => m.key), ...counterCols.map((c) => `${c.group}.${c.name}`)];
  const rows = records.map((r): Cell[] => [
    experiment,
    r.name,
    r.algorithm,
    ...swept.map((k) => r.swept[k] ?? null),
    ...measures.map((m) => measureCell(r, m)),
    // 0 when the variant has the group without this counter; empty when it lacks the group
    // (its counters never arrived, or its detector has no such group) or left the counter out.
    ...counterCols.map((c) => (r.uncounted?.includes(`${c.group}.${c.name}`) ? null : readCounter(r.counters, c))),
  ]);
  return toCsv(header, rows);
}

export function distributionCsv(thresholds: readonly number[], records: readonly VariantRecord[]): string {
  const header = ['rr_threshold', ...records.map((r) => r.name)];
  const rows = thresholds.map((t, i): Cell[] => [t, ...records.map((r) => r.distribution[i] ?? null)]);
  return toCsv(header, rows);
}
