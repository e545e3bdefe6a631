/** The compact table `bench run` prints when it is done: the run's measures that have a summary column. */
import { grouped, seconds, usd } from '../format.ts';
import { summaryMeasures } from './measures.ts';
import { replayedValues } from './replayed.ts';
import type { RunRecord } from './types.ts';

const fmt = (v: number | null, digits: number): string =>
  v === null ? '-' : digits === 0 ? grouped(v) : v.toFixed(digits);

export function summaryTable(run: RunRecord): string {
  const columns = summaryMeasures(run.measures);
  const header = ['variant', ...columns.map((m) => m.summary?.header ?? m.key)];
  const rows = run.variants.map((v) => [v.name, ...columns.map((m) => fmt(v.measures[m.key] ?? null, m.summary?.digits ?? 4))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const out = [
    `${run.experiment}: ${grouped(run.corpus.documents)} documents, threshold ${run.evaluate.threshold}, min_score ${run.evaluate.min_score}`,
    line(header),
    line(header.map((_, i) => '-'.repeat(widths[i] as number))),
    ...rows.map(line),
    timeLine(run),
    ...resumedNote(run),
    ...replayedNotes(run),
  ];
  return out.join('\n') + '\n';
}

/** A resumed run's saved variants keep their earlier times, and the first ones after them compute what those had. */
function resumedNote(run: RunRecord): string[] {
  const resumed = run.resumed;
  if (resumed.length === 0) return [];
  return [`note: ${resumed.length} variant${resumed.length === 1 ? ' was' : 's were'} taken from the checkpoint of an interrupted run (${resumed.join(', ')}); the first variants after them computed what those had (run.json: backend_extra.computed)`];
}

/** A variant that replayed stored values did less than one that computes them: its time says so. */
function replayedNotes(run: RunRecord): string[] {
  return run.variants.flatMap((v) => {
    const replayed = replayedValues(v);
    if (replayed.length === 0) return [];
    return [`note: ${v.name} replayed ${replayed.join(', ')} from the cache of an earlier run; its time leaves their computation out (--no-stored-values computes them)`];
  });
}

/** `read 8.10 s · variants 4.60 s · total 15.0 s · 21.3 CPU-s · $0.0003 · variant peak 776 MB` */
export function timeLine(run: RunRecord): string {
  const t = run.totals;
  const parts = [`read ${seconds(t.read_s)}${run.corpus.cache === 'hit' ? ' (corpus cache)' : ''}`, `variants ${seconds(t.variants_s)}`];
  if (t.studies_s >= 0.005) parts.push(`studies ${seconds(t.studies_s)}`);
  parts.push(`total ${seconds(t.total_s)}`, `${t.cpu_s.toPrecision(3)} CPU-s`, usd(t.cost_usd), `largest variant peak ${t.peak_rss_mb.toFixed(0)} MB`);
  return parts.join(' · ');
}
