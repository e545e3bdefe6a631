/** The compact table `bench run` prints when it is done. */
import type { RunRecord } from './types.ts';

const fmt = (v: number | null, digits = 4): string => (v === null ? '-' : v.toFixed(digits));

export function summaryTable(run: RunRecord): string {
  const header = ['variant', 'pairs', 'avg_err', 'corr', 'P_pairs', 'R_pairs', 'P_docs', 'R_docs', 'mr1_red%', 'time_s'];
  const rows = run.variants.map((v) => [
    v.name,
    v.pairs.toLocaleString('en-US'),
    fmt(v.metrics.avg_error),
    fmt(v.metrics.correlation),
    fmt(v.metrics.precision_pairs),
    fmt(v.metrics.recall_pairs),
    fmt(v.metrics.precision_docs),
    fmt(v.metrics.recall_docs),
    fmt(v.mr1_reduction_pct, 1),
    v.runtime_s.toFixed(2),
  ]);
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
