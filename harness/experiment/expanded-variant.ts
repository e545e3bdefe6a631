/**
 * Running a variant of several runs (expansion.ts, contract/derived.ts): each trial or
 * calibration run as a variant of its own (runVariant), then
 * - trials: the variant as their average (results/trials.ts);
 * - calibration: the adapter's choice from the runs' per-size-group results at the
 *   calibration's threshold, and the variant run with the chosen parameters.
 * Returns the variant's record followed by its runs' records (metrics.csv's rows). Each run is
 * saved to the checkpoint as it completes and the variant last, so `--resume` takes what was
 * finished and a saved variant always has its runs.
 */
import type { CalibrationResult, GroupOutcome } from '../../contract/index.ts';
import { variantIdentity, type Checkpoint } from '../results/checkpoint.ts';
import { averageTrials } from '../results/trials.ts';
import type { VariantRecord } from '../results/types.ts';
import { partVariant, type Expansion } from './expansion.ts';
import type { Variant } from './types.ts';
import { REPORT_FLOOR, runVariant, type PlannedVariant, type Truth, type VariantContext } from './variant-run.ts';
import { grouped } from '../format.ts';

export interface ExpandedVariantArgs {
  readonly planned: PlannedVariant & { readonly expansion: Expansion };
  /** the variant's 1-based position in the run; its runs are parts 1, 2, … of it, the chosen run the variant's own */
  readonly position: number;
  readonly ctx: VariantContext;
  readonly truth: Truth | undefined;
  readonly sortTruth: Parameters<typeof runVariant>[4];
  readonly checkpoint: Checkpoint;
  /** writes a file into the run folder */
  write(file: string, bytes: Buffer): void;
  /** one line when a run is done */
  log(line: string): void;
}

export interface ExpandedVariantOutcome {
  /** the variant's record, then its runs' */
  readonly records: readonly VariantRecord[];
  /** whether the whole variant came from the checkpoint */
  readonly resumed: boolean;
}

const identity = (v: Variant): string => variantIdentity(v.algorithm, v.params);

export async function runExpandedVariant(a: ExpandedVariantArgs): Promise<ExpandedVariantOutcome> {
  const { planned, ctx, checkpoint } = a;
  const { variant: v, adapter, expansion } = planned;
  const role = expansion.kind === 'trials' ? 'trial' : 'calibration';
  const parts = expansion.runs.map((run) => partVariant(v, run));
  const restore = (x: Variant) => checkpoint.restore(x.name, identity(x));

  const whole = restore(v);
  const savedParts = whole ? parts.map(restore) : [];
  if (whole && savedParts.every((s) => s !== undefined)) {
    for (const s of [whole, ...savedParts]) for (const f of s?.files ?? []) a.write(f.file, f.bytes);
    return { records: [whole.record, ...savedParts.map((s) => s?.record as VariantRecord)], resumed: true };
  }

  const extraThresholds = expansion.kind === 'calibration' ? [expansion.calibration.threshold] : [];
  const partCtx: VariantContext = extraThresholds.length > 0 ? { ...ctx, extraThresholds } : ctx;
  const partRecords: VariantRecord[] = [];
  for (const [i, part] of parts.entries()) {
    ctx.signal.throwIfAborted();
    const saved = restore(part);
    if (saved) {
      for (const f of saved.files) a.write(f.file, f.bytes);
      partRecords.push(saved.record);
      a.log(`  ${part.name}: resumed from the checkpoint`);
      continue;
    }
    const plan = adapter.plan(part.params, { minScore: REPORT_FLOOR, seed: ctx.exp.seed });
    const r = await runVariant({ variant: part, adapter, plan, minScore: REPORT_FLOOR }, { position: a.position, part: i + 1 }, { ...partCtx, progress: (phase, done, total) => ctx.progress(`${role} ${i + 1}/${parts.length} ${phase}`, done, total) }, a.truth, a.sortTruth);
    const record: VariantRecord = { ...r.record, part_of: { variant: v.name, role } };
    for (const f of r.files) a.write(f.file, f.bytes);
    checkpoint.save(part.name, identity(part), { record, files: r.files });
    partRecords.push(record);
    a.log(`  ${part.name}: ${grouped(record.measures.pairs ?? 0)} pairs, ${(record.measures.runtime_s ?? 0).toFixed(2)} s`);
  }

  if (expansion.kind === 'trials') {
    const record = averageTrials(v, partRecords);
    checkpoint.save(v.name, identity(v), { record, files: [] });
    return { records: [record, ...partRecords], resumed: false };
  }

  const { calibration } = expansion;
  const results: CalibrationResult[] = partRecords.map((r, k) => ({
    label: expansion.runs[k]?.label ?? r.name,
    counters: r.counters,
    groups: groupOutcomes(r, calibration.threshold),
  }));
  const choice = calibration.choose(results);
  ctx.signal.throwIfAborted();
  const chosen: Variant = { ...v, params: choice.params };
  const plan = adapter.plan(choice.params, { minScore: REPORT_FLOOR, seed: ctx.exp.seed });
  const r = await runVariant({ variant: chosen, adapter, plan, minScore: REPORT_FLOOR }, { position: a.position }, ctx, a.truth, a.sortTruth);
  const record: VariantRecord = {
    ...r.record,
    calibration: {
      params_given: v.params,
      runs: partRecords.map((p) => p.name),
      summary: choice.summary,
      details: choice.details,
      ...(choice.table ? { table: choice.table } : {}),
    },
  };
  for (const f of r.files) a.write(f.file, f.bytes);
  checkpoint.save(v.name, identity(v), { record, files: r.files });
  a.log(`  ${v.name}: ${choice.summary}`);
  return { records: [record, ...partRecords], resumed: false };
}

/** A calibration run's outcome per size group at `threshold` (the last slice at it: the calibration's). */
function groupOutcomes(r: VariantRecord, threshold: number): GroupOutcome[] {
  const slices = r.slices;
  const t = slices ? slices.thresholds.lastIndexOf(threshold) : -1;
  if (!slices || t < 0) throw new Error(`${r.name}: no size-group slices at the calibration threshold ${threshold}`);
  return slices.groups.map((g) => {
    const m = g[t];
    if (!m) throw new Error(`${r.name}: size-group slice missing at threshold ${threshold}`);
    return { dupPairs: m.dup_pairs, resPairs: m.res_pairs, bothPairs: m.both_pairs, precision: m.precision_pairs, recall: m.recall_pairs };
  });
}
