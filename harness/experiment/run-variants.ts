/**
 * The run's variants step: the ground truth, then every variant, each a resumable step
 * (checkpointed.ts) whatever its kind: a plain variant is one run, an expanded one (trials,
 * calibration: expanded-variant.ts) several. Every later variant is compared with the ground
 * truth, which comes first.
 */
import type { PairList, PairScorer } from '../../contract/index.ts';
import type { ErrorLine } from '../evaluate/explain/errors.ts';
import type { SavedResult, SavedVariant } from '../results/checkpoint.ts';
import type { BackendRunResult } from '../mapreduce/backend.ts';
import { grouped } from '../format.ts';
import type { VariantRecord } from '../results/types.ts';
import type { Progress } from '../progress.ts';
import { checkpointed, stepIdentity, type RunFolderSink } from './checkpointed.ts';
import { runExpandedVariant } from './expanded-variant.ts';
import { REPORT_FLOOR, runVariant, type PlannedVariant, type Truth, type VariantContext } from './variant-run.ts';

export interface VariantsOutcome {
  /** metrics.csv's rows, in order: each variant's, an expanded one's followed by its runs' */
  readonly records: readonly VariantRecord[];
  /** the variants taken whole from the checkpoint */
  readonly resumed: readonly string[];
  /** the ground truth, when the run has one */
  readonly truth: Truth | undefined;
  /** the lines of the error files the variants run now wrote (not those taken from the checkpoint), by variant */
  readonly errorLines: ReadonlyMap<string, readonly ErrorLine[]>;
}

/** `planned` in order (the ground truth first), each on `ctx` and saved to `sink`'s checkpoint. */
export async function runVariants(planned: readonly PlannedVariant[], ctx: Omit<VariantContext, 'progress'>, sink: RunFolderSink, progress: Progress): Promise<VariantsOutcome> {
  const records: VariantRecord[] = [];
  const resumed: string[] = [];
  let truth: Truth | undefined;
  const errorLines = new Map<string, readonly ErrorLine[]>();
  let heldChars = 0;
  for (const [i, p] of planned.entries()) {
    ctx.signal.throwIfAborted();
    const label = `[${i + 1}/${planned.length}] ${p.variant.name}`;
    const vctx: VariantContext = { ...ctx, progress: (phase, done, total) => progress.update(`${label} ${phase}`, done, total) };
    const position = i + 1;
    let line: string;
    let wasResumed: boolean;
    if (p.expansion) {
      // Expanded variants are scored without the reply oracle, as they always were (its measures are of one run's pairs).
      // Nor are their errors sampled: a trial or calibration run is not a variant a user acts on.
      const { replies: _replies, errors: _errors, ...expandedCtx } = vctx;
      const out = await runExpandedVariant({ planned: { ...p, expansion: p.expansion }, position, truth, log: (l) => progress.log(l) }, expandedCtx, sink);
      records.push(...out.records);
      wasResumed = out.resumed;
      line = `${out.records.length - 1} runs`;
    } else {
      // A ground truth saved from another floor holds other pairs (truthFloor); one saved without its pairs is run again.
      const suffix = p.minScore === REPORT_FLOOR ? '' : ` from ${p.minScore}`;
      const id = { ...p.variant, suffix };
      // The ground truth's run is saved before its evaluation: a failure after its join keeps it.
      const earlier = p.variant.groundTruth ? sink.checkpoint.restoreResult(p.variant.name, stepIdentity(id)) : undefined;
      const step = await checkpointed(
        sink,
        id,
        async (): Promise<SavedVariant> => {
          const r = await runVariant(
            {
              planned: p,
              place: { position },
              truth,
              ...(earlier ? { saved: resultOf(earlier) } : {}),
              ...(p.variant.groundTruth ? { keep: (result: BackendRunResult) => keepResult(sink, p.variant.name, stepIdentity(id), result) } : {}),
            },
            vctx,
          );
          const chars = r.errorLines ? carriedChars(r.errorLines) : 0;
          if (r.errorLines && heldChars + chars <= HELD_ERROR_TEXT) {
            errorLines.set(p.variant.name, r.errorLines);
            heldChars += chars;
          }
          return { record: r.record, files: r.files, ...(r.truth ? { truth: r.truth.pairs } : {}) };
        },
        (saved) => !p.variant.groundTruth || saved.truth !== undefined,
      );
      if (p.variant.groundTruth && step.saved.truth) truth = truthOf(step.saved.record, step.saved.truth, p.minScore === REPORT_FLOOR ? undefined : lookupsOf(p, position, ctx));
      records.push(step.saved.record);
      wasResumed = step.resumed;
      const m = step.saved.record.measures;
      line = `${grouped(m.pairs ?? 0)} pairs, ${(m.runtime_s ?? 0).toFixed(2)} s`;
    }
    if (wasResumed) resumed.push(p.variant.name);
    progress.log(`${label}: ${wasResumed ? 'resumed from the checkpoint' : line}`);
  }
  return { records, resumed, truth, errorLines };
}

/**
 * Characters of carried text the error lines held for the report may hold in all, at most (a
 * variant past it is read back by the report instead). In memory the texts are views of the
 * documents; read from a spilled corpus they are copies, and a sweep's samples may then hold
 * tens of megabytes that the variants' peak memory would count.
 */
const HELD_ERROR_TEXT = 1 << 23;

function carriedChars(lines: readonly ErrorLine[]): number {
  let n = 0;
  for (const l of lines) n += l.texts.a.length + l.texts.b.length;
  return n;
}

/** Saves a run's result before its evaluation, when it is pairs only (a ground truth's). */
function keepResult(sink: RunFolderSink, name: string, identity: string, result: BackendRunResult): void {
  const { outputs, ...facts } = result;
  if (outputs.spans !== undefined || outputs.tables !== undefined || outputs.kept !== undefined) return;
  sink.checkpoint.saveResult(name, identity, { pairs: outputs.pairs, facts });
}

/** The result `keepResult` saved, as the backend gave it. */
function resultOf(saved: SavedResult): BackendRunResult {
  return { ...(saved.facts as Omit<BackendRunResult, 'outputs'>), outputs: { pairs: saved.pairs } };
}

/** The ground truth as later variants need it, from its saved form (run now or resumed alike). */
function truthOf(record: VariantRecord, pairs: PairList, lookups: Truth['lookups']): Truth {
  const candidates = record.measures.candidate_pairs ?? null;
  return { pairs, candidates, measured: { groundTruth: true, counters: record.counters, candidates }, ...(lookups ? { lookups } : {}) };
}

/**
 * The scorer of a ground truth reporting from above REPORT_FLOOR (variant-run.ts truthFloor),
 * made once, when a variant first needs it: after the truth has run it reuses the features its
 * kernel computed; after a resume it computes them (or replays them from the stored values).
 */
function lookupsOf(p: PlannedVariant, position: number, ctx: Omit<VariantContext, 'progress'>): Truth['lookups'] {
  let made: Promise<PairScorer | undefined> | undefined;
  const job = { variant: p.variant.name, algorithm: p.variant.algorithm, params: p.variant.params, minScore: p.minScore, seed: ctx.exp.seed, plan: p.plan, position };
  return () => {
    made ??= (async () => {
      // The backend's when it runs kernels (it shares what the truth's kernel computed), else one made here.
      const scorer = ctx.backend.scorer
        ? await ctx.backend.scorer(job, { docs: ctx.docs, workDir: ctx.workDir, signal: ctx.signal, progress: () => undefined })
        : await ctx.localScorer?.(p.plan);
      // Planned with a floor only when the plan has a scorer (planGroundTruth): its absence is a bug.
      if (!scorer) throw new Error(`ground truth ${p.variant.name}: reported from ${p.minScore} but no scorer was made for it on the ${ctx.backend.kind} backend`);
      return scorer;
    })();
    return made;
  };
}
