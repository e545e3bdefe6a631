/**
 * `bench check`: runs against a baseline. Quality is deterministic, so any difference is a
 * regression and both values are shown; timings get the statistical verdict of timing.ts.
 */
import { UserError } from '../../errors.ts';
import { describeWork, sameWork, workOf } from '../../results/replayed.ts';
import type { RunRecord } from '../../results/types.ts';
import { assertRepetitions, qualityOf, type Baseline } from './baseline.ts';
import { compareTimings, type TimingComparison, type TimingOptions } from './timing.ts';

export interface QualityChange {
  readonly variant: string;
  readonly measure: string;
  readonly run: string;
  readonly baseline: number | null;
  readonly current: number | null;
  /** the run has no such measure */
  readonly absent?: boolean;
}

export interface TimingRow extends TimingComparison {
  readonly variant: string;
  readonly measure: string;
  readonly baselineSamples: number;
  readonly currentSamples: number;
}

export interface CheckReport {
  readonly experiment: string;
  readonly runs: readonly string[];
  readonly notes: readonly string[];
  readonly quality: readonly QualityChange[];
  /** in the baseline, absent from a run: a variant that no longer runs is a regression */
  readonly missing: readonly string[];
  /** in the runs, absent from the baseline: reported, not judged */
  readonly added: readonly string[];
  /** every timing compared (empty with qualityOnly) */
  readonly timings: readonly TimingRow[];
  readonly qualityOnly: boolean;
  readonly options: TimingOptions;
}

export interface CheckOptions extends TimingOptions {
  readonly qualityOnly: boolean;
}

export function checkRuns(runs: readonly RunRecord[], baseline: Baseline, baselineFile: string, label: (i: number) => string, opts: CheckOptions): CheckReport {
  assertRepetitions(runs, label);
  const first = runs[0] as RunRecord;
  if (first.experiment !== baseline.experiment) {
    throw new UserError(`${baselineFile}: experiment: the baseline is for "${baseline.experiment}", ${label(0)} is "${first.experiment}"`);
  }
  const notes: string[] = [];
  if (first.config_hash !== baseline.config_hash) {
    notes.push(`config hash differs from the baseline's (${baseline.config_hash} → ${first.config_hash}): the config changed since the baseline was written`);
  }
  const quality: QualityChange[] = [];
  const missing = new Set<string>();
  const newMeasures = new Set<string>();
  runs.forEach((run, i) => {
    const byName = new Map(run.variants.map((v) => [v.name, v]));
    for (const [name, b] of Object.entries(baseline.variants)) {
      const v = byName.get(name);
      if (!v) {
        missing.add(name);
        continue;
      }
      const q = qualityOf(run, v);
      for (const [k, expected] of Object.entries(b.quality)) {
        // A measure the run no longer has is a regression too: `undefined` differs from any baseline value.
        const current = k in q ? (q[k] as number | null) : undefined;
        if (current !== expected) quality.push({ variant: name, measure: k, run: label(i), baseline: expected, current: current ?? null, ...(current === undefined ? { absent: true } : {}) });
      }
      for (const k of Object.keys(q)) if (!(k in b.quality)) newMeasures.add(k);
    }
  });
  const added = [...new Set(runs.flatMap((r) => r.variants.map((v) => v.name)))].filter((n) => !(n in baseline.variants));
  const timings: TimingRow[] = [];
  if (!opts.qualityOnly) {
    for (const [name, b] of Object.entries(baseline.variants)) {
      if (missing.has(name)) continue;
      // Like with like: a variant that replayed stored values did less work than one that computed them.
      const work = runs.map((r) => workOf(r.variants.find((v) => v.name === name) ?? {}));
      const first = work[0] ?? { replayed: [], computed: [] };
      const mixed = work.find((w) => !sameWork(w, first));
      if (mixed) {
        notes.push(`timings of ${name} not compared: the runs did different work (${describeWork(first)} against ${describeWork(mixed)})`);
        continue;
      }
      const recorded = b.replayed === undefined ? undefined : { replayed: b.replayed, computed: b.computed ?? [] };
      if (recorded && !sameWork(recorded, first)) {
        notes.push(`timings of ${name} not compared: this run ${describeWork(first)}, the baseline's ${describeWork(recorded)} (a resumed run, or one with other stored values: --no-stored-values computes everything)`);
        continue;
      }
      for (const [k, baselineSamples] of Object.entries(b.timings)) {
        const current = runs.map((r) => r.variants.find((v) => v.name === name)?.measures[k] ?? NaN).filter(Number.isFinite);
        timings.push({ variant: name, measure: k, baselineSamples: baselineSamples.length, currentSamples: current.length, ...compareTimings(baselineSamples, current, opts) });
      }
    }
  }
  if (!opts.qualityOnly && Object.values(baseline.variants).some((b) => b.replayed === undefined)) {
    notes.push('the baseline does not record what its variants replayed (written by an older version): timings compared whatever each run replayed');
  }
  if (newMeasures.size > 0) notes.push(`measures not in the baseline (not judged): ${[...newMeasures].join(', ')}`);
  return { experiment: first.experiment, runs: runs.map((r) => r.run_id), notes, quality, missing: [...missing], added, timings, qualityOnly: opts.qualityOnly, options: opts };
}

export function regressionCount(r: CheckReport): number {
  return r.quality.length + r.missing.length + r.timings.filter((t) => t.verdict === 'regressed').length;
}

// ---- the printed table ----

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => (r[j] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, j) => c.padEnd(widths[j] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const show = (x: number | null): string => (x === null ? '(empty)' : String(x));
const seconds = (x: number): string => (x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(3) : x.toPrecision(3));

export function formatCheckReport(r: CheckReport, baselineFile: string): string {
  const out: string[] = [`bench check: ${r.experiment}, ${r.runs.length} run${r.runs.length === 1 ? '' : 's'} (${r.runs.join(', ')}) against ${baselineFile}`];
  for (const n of r.notes) out.push(`note: ${n}`);
  out.push('', 'Quality (compared exactly):');
  if (r.quality.length === 0 && r.missing.length === 0) out.push('  no differences');
  else {
    const rows = [
      ...r.quality.map((q) => [q.variant, q.measure, show(q.baseline), q.absent ? '(no such measure)' : show(q.current), q.run, 'REGRESSION']),
      ...r.missing.map((m) => [m, '(variant)', 'present', 'missing', '', 'REGRESSION']),
    ];
    out.push(...table(['variant', 'measure', 'baseline', 'current', 'run', 'verdict'], rows).map((l) => `  ${l}`));
  }
  if (r.added.length) out.push(`  new variants (not in the baseline, not judged): ${r.added.join(', ')}`);
  if (r.qualityOnly) out.push('', 'Timings: not checked (--quality-only).');
  else {
    const o = r.options;
    out.push('', `Timings (ratio of medians >= ${o.minFactor}, medians apart by >= ${o.minDelta} s and, with >= ${o.minSamples} samples a side, Mann-Whitney U p < ${o.alpha}):`);
    const changed = r.timings.filter((t) => t.verdict !== 'unchanged');
    if (changed.length === 0) out.push(`  no changes (${r.timings.length} compared)`);
    else {
      const rows = changed.map((t) => [
        t.variant,
        t.measure,
        `${seconds(t.baselineMedian)} (n=${t.baselineSamples})`,
        `${seconds(t.currentMedian)} (n=${t.currentSamples})`,
        Number.isFinite(t.ratio) ? `${t.ratio.toFixed(2)}x` : 'inf',
        t.test.kind === 'mann-whitney' ? t.test.p.toPrecision(2) : 'n/a (factor only)',
        t.verdict === 'regressed' ? 'REGRESSION' : 'improved',
      ]);
      out.push(...table(['variant', 'measure', 'baseline median', 'current median', 'ratio', 'p', 'verdict'], rows).map((l) => `  ${l}`));
      out.push(`  ${r.timings.length - changed.length} of ${r.timings.length} timings unchanged`);
    }
  }
  const n = regressionCount(r);
  const improved = r.timings.filter((t) => t.verdict === 'improved').length;
  out.push('', n === 0 ? `OK: no regressions${improved ? `, ${improved} improved` : ''}.` : `FAILED: ${n} regression${n === 1 ? '' : 's'}${improved ? `, ${improved} improved` : ''}.`);
  return `${out.join('\n')}\n`;
}
