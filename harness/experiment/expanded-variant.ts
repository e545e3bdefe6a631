/**
 * Running a variant of several runs (expansion.ts, contract/derived.ts): each trial or
 * calibration run as a variant of its own (runVariant), then
 * - trials: the variant as their average (results/trials.ts);
 * - calibration: the adapter's choice from the runs' per-size-group results at the
 *   calibration's threshold, and the variant run with the chosen parameters.
 * Returns the variant's record followed by its runs' records (metrics.csv's rows). Each run is a
 * resumable step (checkpointed.ts) and the variant the last one, so `--resume` takes what was
 * finished and a saved variant is taken only with all of its runs.
 */
import type { CalibrationResult, GroupOutcome } from '../../contract/index.ts';
import type { SavedVariant } from '../results/checkpoint.ts';
import { averageTrials } from '../results/trials.ts';
import type { VariantRecord } from '../results/types.ts';
import { checkpointed, type RunFolderSink } from './checkpointed.ts';
import { partVariant, type Expansion } from './expansion.ts';
import type { Variant } from './types.ts';
import { REPORT_FLOOR, runVariant, type PlannedVariant, type Truth, type VariantContext } from './variant-run.ts';
import { grouped } from '../format.ts';

export interface ExpandedVariantArgs {
  readonly planned: PlannedVariant & { readonly expansion: Expansion };
  /** the variant's 1-based position in the run; its runs are parts 1, 2, … of it, the chosen run the variant's own */
  readonly position: number;
  readonly truth: Truth | undefined;
  /** one line when a run is done */
  log(line: string): void;
}

export interface ExpandedVariantOutcome {
  /** the variant's record, then its runs' */
  readonly records: readonly VariantRecord[];
  /** whether the whole variant came from the checkpoint */
  readonly resumed: boolean;
}

export async function runExpandedVariant(a: ExpandedVariantArgs, ctx: VariantContext, sink: RunFolderSink): Promise<ExpandedVariantOutcome> {
  const { variant: v, adapter, expansion } = a.planned;
  const role = expansion.kind === 'trials' ? 'trial' : 'calibration';
  const parts = expansion.runs.map((run) => partVariant(v, run));
  const extraThresholds = expansion.kind === 'calibration' ? [expansion.calibration.threshold] : [];
  const partCtx: VariantContext = extraThresholds.length > 0 ? { ...ctx, extraThresholds } : ctx;
  const partRecords: VariantRecord[] = [];
  let partsResumed = 0;
  for (const [i, part] of parts.entries()) {
    ctx.signal.throwIfAborted();
    const step = await checkpointed(sink, part, async () => {
      const plan = adapter.plan(part.params, { minScore: REPORT_FLOOR, seed: ctx.exp.seed });
      const progress = (phase: string, done?: number, total?: number): void => ctx.progress(`${role} ${i + 1}/${parts.length} ${phase}`, done, total);
      const r = await runVariant({ planned: { variant: part, adapter, plan, minScore: REPORT_FLOOR }, place: { position: a.position, part: i + 1 }, truth: a.truth }, { ...partCtx, progress });
      return { record: { ...r.record, part_of: { variant: v.name, role } }, files: r.files };
    });
    partRecords.push(step.saved.record);
    if (step.resumed) partsResumed++;
    const { record } = step.saved;
    a.log(`  ${part.name}: ${step.resumed ? 'resumed from the checkpoint' : `${grouped(record.measures.pairs ?? 0)} pairs, ${(record.measures.runtime_s ?? 0).toFixed(2)} s`}`);
  }
  // The variant saved is taken only with the runs it was made from.
  const whole = await checkpointed(sink, v, () => wholeVariant(a, ctx, partRecords), () => partsResumed === parts.length);
  return { records: [whole.saved.record, ...partRecords], resumed: whole.resumed };
}

/** The variant from its runs: their average (trials), or the run the calibration chose. */
async function wholeVariant(a: ExpandedVariantArgs, ctx: VariantContext, partRecords: readonly VariantRecord[]): Promise<SavedVariant> {
  const { variant: v, adapter, expansion } = a.planned;
  if (expansion.kind === 'trials') return { record: averageTrials(v, partRecords), files: [] };
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
  const r = await runVariant({ planned: { variant: chosen, adapter, plan, minScore: REPORT_FLOOR }, place: { position: a.position }, truth: a.truth }, ctx);
  a.log(`  ${v.name}: ${choice.summary}`);
  return {
    files: r.files,
    record: {
      ...r.record,
      calibration: {
        params_given: v.params,
        runs: partRecords.map((p) => p.name),
        summary: choice.summary,
        details: choice.details,
        ...(choice.table ? { table: choice.table } : {}),
      },
    },
  };
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
