/**
 * The one legend of the summary's column names (`avg_err`, `cand_red%`, `clus`, …): what
 * `bench run` prints at the end, what `bench run --help` lists and what the run report links
 * to, all read from the measure registry, so a column cannot be named in one and explained
 * differently (or not at all) in another.
 */
import type { AlgorithmAdapter } from '../../contract/index.ts';
import { runMeasures, summaryMeasures, type MeasureInfo } from './measures.ts';

export interface LegendEntry {
  /** the summary's column header */
  readonly header: string;
  /** metrics.csv's column */
  readonly key: string;
  readonly label: string;
  /** the detector that adds the column; absent for the general ones */
  readonly algorithm?: string;
}

/** The summary's columns among `measures`, in the summary's order, each with what it means. */
export function columnLegend(measures: readonly MeasureInfo[]): LegendEntry[] {
  const seen = new Set<string>();
  return summaryMeasures(measures).flatMap((m) => {
    const header = m.summary?.header ?? m.key;
    if (seen.has(header)) return [];
    seen.add(header);
    return [{ header, key: m.key, label: m.label, ...(m.algorithm ? { algorithm: m.algorithm } : {}) }];
  });
}

/** Every column a run of these detectors may print: the general measures, then each detector's own. */
export function legendOfDetectors(adapters: readonly Pick<AlgorithmAdapter, 'name' | 'measures'>[]): LegendEntry[] {
  const everything = (): boolean => true;
  return columnLegend(runMeasures(adapters.map((adapter) => ({ adapter, has: everything }))));
}

/** The legend as aligned text lines, `  cand_red%  Reduction of candidate pairs against the ground truth, %`, short enough for a 100-column help. */
export function legendLines(entries: readonly LegendEntry[]): string[] {
  const width = Math.max(0, ...entries.map((e) => e.header.length));
  return entries.map((e) => `  ${e.header.padEnd(width)}  ${e.label}${e.algorithm ? ` (${e.algorithm})` : ''}`);
}
