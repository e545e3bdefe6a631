/** The compact table `bench run` prints when it is done: the run's measures that have a summary column. */
import { summaryMeasures } from './measures.ts';
import type { RunRecord } from './types.ts';

const fmt = (v: number | null, digits: number): string =>
  v === null ? '-' : digits === 0 ? v.toLocaleString('en-US') : v.toFixed(digits);

export function summaryTable(run: RunRecord): string {
  const columns = summaryMeasures(run.measures);
  const header = ['variant', ...columns.map((m) => m.summary?.header ?? m.key)];
  const rows = run.variants.map((v) => [v.name, ...columns.map((m) => fmt(v.measures[m.key] ?? null, m.summary?.digits ?? 4))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const out = [
    `${run.experiment}: ${run.corpus.documents.toLocaleString('en-US')} documents, threshold ${run.evaluate.threshold}, min_score ${run.evaluate.min_score}`,
    line(header),
    line(header.map((_, i) => '-'.repeat(widths[i] as number))),
    ...rows.map(line),
    `total ${run.totals.runtime_s.toFixed(2)} s, ${run.totals.cpu_s.toFixed(2)} CPU-s, $${run.totals.cost_usd.toFixed(6)}, peak ${run.totals.peak_rss_mb.toFixed(0)} MB`,
  ];
  return out.join('\n') + '\n';
}
