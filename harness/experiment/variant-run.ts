/**
 * One variant of a run: plan it with its adapter, run it on the backend, compare it with the
 * ground truth, and build its record and files (pairs, spans, tables).
 */
import type { FileBytes } from '../../kernels/io/pieces.ts';
import type { AlgorithmAdapter, CorpusShape, DocumentSet, MeasuredVariant, PairList, PairScorer, Plan, StoreCodec } from '../../contract/index.ts';
import { ErrorSampler, errorsJsonl, nearDuplicatesOf, sampleClusterErrors, sampleJudgedErrors, type ErrorFileArgs, type ErrorLine, type ErrorSample } from '../evaluate/explain/errors.ts';
import type { ExplainedVariant } from '../evaluate/explain/pair.ts';
import { findDetector, type DetectorCatalog } from '../detectors.ts';
import type { SpanOracle } from '../evaluate/oracle.ts';
import type { DocumentSizes } from '../evaluate/size-groups.ts';
import { curveCsv, type Judgments } from '../evaluate/judgments.ts';
import type { PlantedOracle } from '../evaluate/planted.ts';
import type { ReplyOracle } from '../evaluate/replies.ts';
import type { SpanKind } from '../evaluate/span-kinds.ts';
import { clusterMeasures, clustersFromTable } from '../evaluate/clusters.ts';
import { evaluateVariant, lowestMeasuredScore, pairsFileFloor, type TruthSummary } from '../evaluate/variant.ts';
import { sortPairs } from '../evaluate/sorted-pairs.ts';
import { UserError } from '../errors.ts';
import type { Backend, BackendRunResult } from '../mapreduce/backend.ts';
import type { TaskRunner } from '../runtime/tasks.ts';
import type { PlanOutputs } from '../mapreduce/outputs.ts';
import { peakRssMb, resetPeakRss } from '../results/memory.ts';
import { keptFilePath, spansCsvGz, tableCsvGz } from '../results/output-files.ts';
import { spanExamples } from '../results/span-examples.ts';
import { pairsCsvGz } from '../results/pairs-file.ts';
import type { OutputFileRecord, VariantRecord } from '../results/types.ts';
import { expansionOf, type Expansion } from './expansion.ts';
import type { Experiment, Variant } from './types.ts';

/**
 * Pairs a plan reports: every pair it finds (score > 0). The measures need the exact score of
 * every pair above `min_score` in either the run or the ground truth, and a score cut at the
 * floor would turn a true 0.08 into 0 (docs/design.md §8.2: an unreported pair scores 0).
 */
export const REPORT_FLOOR = Number.MIN_VALUE;

/**
 * The score the ground truth reports from. Each variant needs the truth's score of every pair
 * it reports, however low, and the TREC studies read the truth's pairs whole: then every pair
 * (REPORT_FLOOR), unless the truth can score any pair on demand (`lookups`: its local kernel
 * has a scorer and the backend runs it, contract LocalKernel.scorer). A truth that can, or a
 * run of the ground truth alone, reports from the lowest score any measure reads
 * (lowestMeasuredScore, with every calibration's threshold): the evaluation asks the scorer for
 * a variant's pairs under it.
 */
export function truthFloor(exp: Experiment, variants: readonly Variant[], o: { readonly lookups?: boolean; readonly extraThresholds?: readonly number[] } = {}): number {
  if (exp.studies !== undefined) return REPORT_FLOOR;
  return variants.length === 0 || o.lookups === true ? lowestMeasuredScore(exp.evaluate, o.extraThresholds ?? []) : REPORT_FLOOR;
}

/** The ground truth planned at its floor (truthFloor): its plan says whether it can score pairs on demand. */
export function planGroundTruth(exp: Experiment, detectors: DetectorCatalog, variants: readonly PlannedVariant[]): PlannedVariant {
  const first = planVariant(exp, detectors, exp.groundTruth, REPORT_FLOOR);
  // On every backend alike, so that each gives the same pairs, counters and CSVs: one without
  // kernels has the scorer made in this process (VariantContext.localScorer).
  const lookups = first.plan.local?.scorer !== undefined;
  const extraThresholds = variants.flatMap((v) => (v.expansion?.kind === 'calibration' ? [v.expansion.calibration.threshold] : []));
  const floor = truthFloor(exp, variants.map((v) => v.variant), { lookups, extraThresholds });
  return floor === REPORT_FLOOR ? first : planVariant(exp, detectors, exp.groundTruth, floor);
}

/**
 * `planned` with the ground truth planned again at REPORT_FLOOR when its lookups would not fit
 * `budgetBytes` (LocalKernel.scorerBytes, else what its in-memory kernel holds). Then it reports
 * every pair it scores, as before lookups. Decided once the corpus is read (its shape); a run of
 * the ground truth alone needs no lookups and keeps its floor.
 */
export function truthWithinMemory(planned: readonly PlannedVariant[], o: { readonly exp: Experiment; readonly detectors: DetectorCatalog; readonly shape: CorpusShape; readonly budgetBytes: number | undefined }): readonly PlannedVariant[] {
  const [truth, ...variants] = planned;
  const local = truth?.plan.local;
  if (!truth?.variant.groundTruth || variants.length === 0 || truth.minScore === REPORT_FLOOR || !local?.scorer || o.budgetBytes === undefined) return planned;
  if ((local.scorerBytes ?? local.memoryBytes)(o.shape) <= o.budgetBytes) return planned;
  return [planVariant(o.exp, o.detectors, truth.variant, REPORT_FLOOR), ...variants];
}

/**
 * A variant with its adapter and plan. A variant of several runs (`expansion`) is planned as
 * its first run, which says what its output means and which worker modules it needs.
 */
export interface PlannedVariant {
  readonly variant: Variant;
  readonly adapter: AlgorithmAdapter;
  readonly plan: Plan;
  /** the score the plan reports from (REPORT_FLOOR, or the ground truth's truthFloor) */
  readonly minScore: number;
  readonly expansion?: Expansion;
}

export function planVariant(exp: Experiment, detectors: DetectorCatalog, v: Variant, minScore = REPORT_FLOOR): PlannedVariant {
  const adapter = findDetector(detectors, v.algorithm);
  if (!adapter) throw new UserError(`${exp.file}: variant ${v.name}: unknown algorithm ${v.algorithm}`);
  const expansion = v.groundTruth ? undefined : expansionOf(adapter, v, exp);
  const params = expansion ? expansion.runs[0]?.params : v.params;
  const plan = adapter.plan(params, { minScore, seed: exp.seed, strict: exp.corpus.strict });
  return { variant: v, adapter, plan, minScore, ...(expansion ? { expansion } : {}) };
}

/**
 * The ground truth as every later variant needs it; `lookups` gives its scorer (TruthSummary
 * `scorer`), made when a variant first needs it and shared by the later ones.
 */
export type Truth = Omit<TruthSummary, 'scorer'> & { readonly measured: MeasuredVariant; readonly lookups?: () => Promise<PairScorer | undefined> };

export interface VariantResult {
  readonly record: VariantRecord;
  readonly files: readonly { readonly file: string; readonly bytes: FileBytes }[];
  /** the ground truth's pairs, sorted, when this variant is the ground truth */
  readonly truth?: Truth;
  /** the lines of its `errors/<variant>.jsonl` as values, when it wrote one (the run's report takes them instead of reading the file back) */
  readonly errorLines?: readonly ErrorLine[];
}

export interface VariantContext {
  readonly exp: Experiment;
  readonly docs: DocumentSet;
  readonly backend: Backend;
  /** the documents' words and size groups (`evaluate.size_groups`), counted once a run */
  readonly sizes: DocumentSizes;
  /** the runtime's threads when they are up, for the pairs file (runtime.ts `threadsIfUp`) */
  threadsIfUp(): TaskRunner | undefined;
  readonly workDir: string;
  readonly signal: AbortSignal;
  progress(phase: string, done?: number, total?: number): void;
  /** `evaluate.oracle`: planted spans that span-producing variants are scored against */
  readonly spanOracle?: SpanOracle;
  /** thresholds the slices are computed at beyond evaluate's, after them (a calibration's) */
  readonly extraThresholds?: readonly number[];
  /** `evaluate.replies`: the reply-parent pairs of a mail corpus and the span kinds */
  readonly replies?: ReplyOracle;
  /** `evaluate.planted`: the planted pairs of a synthetic corpus, by edit rate */
  readonly planted?: PlantedOracle;
  /** a sample of each variant's errors to explain into `errors/<variant>.jsonl` (issue 26); none: no such files */
  readonly errors?: ErrorSampling;
  /** `evaluate.judgments`: human judgments of document pairs */
  readonly judgments?: Judgments;
  /**
   * A plan's scorer (contract LocalKernel.scorer) made in this process, for a backend that has
   * none of its own (streaming, EMR: the ground truth's lookups, truth-lookups.ts)
   */
  localScorer?(plan: Plan): Promise<PairScorer | undefined>;
}

/** What a run's error samples need beside the variant: the ground truth as an explanation sees it, and what the explanations share. */
export interface ErrorSampling {
  readonly truth: ExplainedVariant;
  /** errors of each kind (false positives, false negatives) a variant's sample keeps */
  readonly size: number;
  cached<T>(key: string, compute: () => T): T;
  storedIfAny?<T>(codec: StoreCodec<T>): T | undefined;
  /** what the run's kernels computed (contract ExplainContext.computedIfAny) */
  computedIfAny?<T>(value: string | StoreCodec<T>): Promise<T | undefined>;
}

/**
 * Where a run is in its experiment, for a backend that names its remote outputs by it (EMR):
 * the variant's 1-based position (the ground truth first) and, for a trial or calibration run
 * of an expanded variant, its 1-based place among them. Both are the same when a run resumes,
 * whatever the checkpoint skips.
 */
export interface RunPlace {
  readonly position: number;
  readonly part?: number;
}

/** One run of a variant: the variant planned, where it is in the run, and the ground truth (none: it is the ground truth). */
export interface VariantRunArgs {
  readonly planned: PlannedVariant;
  readonly place: RunPlace;
  readonly truth: Truth | undefined;
  /** what the backend gave in an earlier run (Checkpoint.saveResult): evaluated without running again */
  readonly saved?: BackendRunResult;
  /** called with what the backend gives, before the evaluation, to save it */
  keep?(result: BackendRunResult): void;
}

export async function runVariant(args: VariantRunArgs, ctx: VariantContext): Promise<VariantResult> {
  const { place, truth } = args;
  const { variant: v, adapter, plan, minScore } = args.planned;
  const { exp, docs } = ctx;
  const memory = resetPeakRss();
  const result =
    args.saved ??
    (await ctx.backend.run(
      { variant: v.name, algorithm: v.algorithm, params: v.params, minScore, seed: exp.seed, plan, ...place },
      { docs, workDir: ctx.workDir, signal: ctx.signal, progress: ctx.progress },
    ));
  if (!args.saved) args.keep?.(result);
  const { pairs } = result.outputs;
  // The pairs file is made on a worker thread (or compressed on libuv's) while the evaluation runs here.
  const pairsFile = pairsCsvGz(pairs, docs.ids, pairsFileFloor(plan.output, exp.evaluate.min_score), ctx.threadsIfUp());
  pairsFile.catch(() => undefined); // awaited in outputFiles; an evaluation that throws first leaves it unawaited
  const scorer = truth?.lookups ? await truth.lookups() : undefined;
  // The errors against the truth are drawn as the comparison counts them (errors.ts ErrorSampler).
  const sampler = ctx.errors && truth && !v.groundTruth ? new ErrorSampler({ seed: exp.seed, threshold: exp.evaluate.threshold, size: ctx.errors.size }) : undefined;
  const ev = await evaluateVariant({
    pairs,
    output: plan.output,
    counters: result.counters,
    documents: docs.ids.length,
    evaluate: exp.evaluate,
    truth: truth ? { pairs: truth.pairs, candidates: truth.candidates, ...(scorer ? { scorer } : {}) } : undefined,
    sizes: ctx.sizes,
    ...(ctx.extraThresholds ? { extraThresholds: ctx.extraThresholds } : {}),
    signal: ctx.signal,
    ...(sampler ? { wrong: sampler } : {}),
  });
  const measured: MeasuredVariant = { groundTruth: v.groundTruth, counters: result.counters, candidates: ev.measures.candidate_pairs ?? null };
  const spans = plan.output.spans ? (result.outputs.spans ?? []) : undefined;
  const kinds = ctx.replies && spans ? ctx.replies.kinds(spans) : undefined;
  const atThreshold = plan.output.decisions.kind === 'score-at-threshold';
  const decided = (i: number): boolean => !atThreshold || (pairs.score[i] as number) >= exp.evaluate.threshold;
  const planted = ctx.planted?.measure(pairs, decided);
  const judged = ctx.judgments?.measure(pairs, decided);
  const measures: Record<string, number | null> = {
    docs: docs.ids.length,
    ...ev.measures,
    runtime_s: result.runtimeS,
    cpu_s: result.cpuS,
    // A command's process tree holds its memory beside the harness' own (which holds the corpus meanwhile).
    peak_rss_mb: peakRssMb() + (result.processTree?.peakRssMb ?? 0),
    cost_usd: result.costUsd,
    ...standaloneMeasures(result),
    ...(result.spillBytes === undefined ? {} : { spill_mb: result.spillBytes / 2 ** 20 }),
    ...(ctx.spanOracle && spans ? ctx.spanOracle.measures(spans) : {}),
    ...(ctx.replies ? ctx.replies.measures(pairs, decided, spans && kinds ? { spans, kinds } : undefined) : {}),
    ...(planted ? planted.measures : {}),
    ...(judged ? judged.measures : {}),
    ...(plan.output.clusters && truth
      ? clusterMeasures({
          documents: docs.ids.length,
          clusterOf: clustersFromTable(result.outputs.tables?.[plan.output.clusters] ?? [], docs.ids.length),
          truth: truth.pairs,
          threshold: exp.evaluate.threshold,
        })
      : {}),
  };
  for (const m of adapter.measures ?? []) {
    measures[m.key] = 'shows' in m ? (measures[m.shows] ?? null) : m.value(measured, truth?.measured ?? measured);
  }
  // Explained while the pairs file is still being made on another thread (outputFiles awaits it):
  // the main thread waited for it there, 70-85 ms a quickstart, with its own work left to do.
  const errors = ctx.errors && sampler && truth ? await errorFile({ variant: v, adapter, plan, pairs, sample: sampler.sample(), truth, tables: result.outputs.tables, kept: result.outputs.kept }, ctx, ctx.errors) : undefined;
  const files = await outputFiles(v.name, plan, result.outputs, docs, pairsFile, { ...(kinds ? { kinds } : {}), ...(ctx.replies ? { replyPairs: ctx.replies.pairs } : {}) });
  if (errors) files.push({ record: errors.record, bytes: errors.bytes });
  if (judged?.curve) {
    files.push({
      record: { file: `judgments/${v.name}.csv`, rows: judged.curve.length, description: 'precision and recall on the judged pairs at each threshold: threshold, decided, precision, recall, f1' },
      bytes: Buffer.from(curveCsv(judged.curve)),
    });
  }
  return {
    files: files.map(({ record, bytes }) => ({ file: record.file, bytes })),
    ...(errors ? { errorLines: errors.lines } : {}),
    ...(v.groundTruth ? { truth: { pairs: sortPairs(pairs, docs.ids.length, 'ground truth'), candidates: measured.candidates, measured } } : {}),
    record: {
      name: v.name,
      algorithm: v.algorithm,
      // A run name holds no `/` (schema.ts): sweep points, trials and calibration runs add theirs after one.
      ...(adapter.seriesPerRun ? { series: v.name.split('/')[0] } : {}),
      ground_truth: v.groundTruth,
      params: v.params,
      swept: v.swept,
      score: plan.output.score,
      decisions: plan.output.decisions,
      ...(plan.output.clusters ? { cluster_links: plan.output.clusterLinks ?? 'induced pairs' } : {}),
      measures,
      not_applicable: { ...ev.notApplicable, ...(result.standalone === 'unknown' ? STANDALONE_UNKNOWN : {}) },
      pairs_compared: ev.pairsCompared,
      distribution: ev.distribution,
      counters: result.counters,
      ...(result.uncounted?.length ? { uncounted: result.uncounted.map((c) => `${c.group}.${c.name}`) } : {}),
      files: files.map((f) => f.record),
      ...(ev.slices ? { slices: ev.slices } : {}),
      ...(planted ? { planted: planted.byRate } : {}),
      warnings: [...ev.warnings, ...(result.warnings ?? []), ...(ctx.replies?.warning ? [ctx.replies.warning] : []), ...(ctx.planted?.warning ? [ctx.planted.warning] : []), ...(ctx.judgments?.warning ? [ctx.judgments.warning] : [])],
      memory,
      ...(result.extra ? { backend_extra: result.extra } : {}),
    },
  };
}

/** `errors/<variant>.jsonl`: a seeded sample of the variant's false positives and false negatives, explained (evaluate/explain/errors.ts). */
async function errorFile(
  r: {
    readonly variant: Variant;
    readonly adapter: AlgorithmAdapter;
    readonly plan: Plan;
    readonly pairs: PairList;
    /** its errors against the ground truth, drawn by the evaluation (ErrorSampler) */
    readonly sample: ErrorSample;
    readonly truth: Truth;
    readonly tables: PlanOutputs['tables'];
    readonly kept: PlanOutputs['kept'];
  },
  ctx: VariantContext,
  e: ErrorSampling,
): Promise<{ record: OutputFileRecord; bytes: FileBytes; lines: readonly ErrorLine[] }> {
  const { exp, docs } = ctx;
  const threshold = exp.evaluate.threshold;
  ctx.progress('explaining errors');
  const clusters = r.plan.output.clusters;
  const clusterOf = clusters ? clustersFromTable(r.tables?.[clusters] ?? [], docs.ids.length) : undefined;
  const sample = r.sample;
  const explainArgs: ErrorFileArgs = {
    docs,
    variant: { name: r.variant.name, adapter: r.adapter, params: r.variant.params, decisions: r.plan.output.decisions },
    truth: e.truth,
    threshold,
    seed: exp.seed,
    width: 98,
    cached: e.cached,
    ...(e.storedIfAny ? { storedIfAny: e.storedIfAny } : {}),
    ...(e.computedIfAny ? { computedIfAny: e.computedIfAny } : {}),
    signal: ctx.signal,
    // counted once a run for the size groups: an explanation's document sides need them too
    words: ctx.sizes.words,
    ...(r.kept ? { kept: keptByName(r.kept) } : {}),
    ...(ctx.judgments ? { judgedOf: judgedOf(ctx.judgments, docs.ids.length) } : {}),
    ...(clusterOf ? { clusters: { clusterOf, links: decidedLinks(r.pairs, r.plan.output.decisions, threshold), madeOf: r.plan.output.clusterLinks ?? ('induced pairs' as const) } } : {}),
  };
  // With judgments, the errors against the judges follow those against the ground truth, marked.
  const judged = ctx.judgments
    ? sampleJudgedErrors({ pairs: r.pairs, truth: r.truth.pairs, judged: ctx.judgments.judged, documents: docs.ids.length, decisions: r.plan.output.decisions, threshold, seed: exp.seed, size: e.size })
    : undefined;
  // A clustered variant's errors as its clusters read them follow, marked (docs/design.md §8.8).
  const ofClusters = clusterOf
    ? sampleClusterErrors({
        clusterOf,
        pairs: r.pairs,
        truth: r.truth.pairs,
        // the truth's near-duplicates are the same for every variant: picked out of its pairs once
        truthNear: e.cached(`truth-near-duplicates:${threshold}`, () => nearDuplicatesOf(r.truth.pairs, threshold)),
        documents: docs.ids.length,
        threshold,
        seed: exp.seed,
        size: e.size,
      })
    : undefined;
  const explained = [
    await errorsJsonl(sample, explainArgs),
    ...(ofClusters ? [await errorsJsonl(ofClusters, { ...explainArgs, from: 'clusters' })] : []),
    ...(judged ? [await errorsJsonl(judged, { ...explainArgs, against: 'judgments' })] : []),
  ];
  const shown = sample.sample.length + (ofClusters?.sample.length ?? 0) + (judged?.sample.length ?? 0);
  return {
    record: {
      file: `errors/${r.variant.name}.jsonl`,
      rows: shown,
      description:
        `${sample.falsePositives} false positives and ${sample.falseNegatives} false negatives at ${threshold}; a seeded sample of at most ${e.size} of each, the most wrong first, each explained` +
        (ofClusters
          ? `; then, marked from: clusters, the errors of its clusters (every pair inside one decided): ${ofClusters.falsePositives} induced pairs below ${threshold} and ${ofClusters.falseNegatives} near-duplicates split, sampled alike` +
            (ofClusters.lookedAt < ofClusters.induced ? ` (the false positives among ${ofClusters.lookedAt} seeded draws of its ${ofClusters.induced} induced pairs)` : '')
          : '') +
        (judged ? `; then, marked against: judgments, ${judged.falsePositives} judged non-duplicates it decided and ${judged.falseNegatives} judged duplicates it missed, sampled alike` : ''),
    },
    bytes: Buffer.concat(explained.map((x) => x.bytes)),
    lines: explained.flatMap((x) => x.lines),
  };
}

/** The pairs a variant decided: the links of its clusters' chains (evaluate/explain/chain.ts). */
function decidedLinks(p: PairList, rule: Plan['output']['decisions'], threshold: number): { a: Uint32Array; b: Uint32Array } {
  if (rule.kind === 'every-reported-pair') return { a: p.a, b: p.b };
  const keep: number[] = [];
  for (let i = 0; i < p.a.length; i++) if ((p.score[i] as number) >= threshold) keep.push(i);
  return { a: Uint32Array.from(keep, (i) => p.a[i] as number), b: Uint32Array.from(keep, (i) => p.b[i] as number) };
}

/** A run's kept files by name (ExplainContext.kept). */
function keptByName(kept: NonNullable<PlanOutputs['kept']>): (name: string) => Uint8Array | undefined {
  return (name) => kept.find((f) => f.name === name)?.bytes;
}

/** The judges' label of a pair (Judgments.judged is keyed a · n + b, a < b). */
function judgedOf(j: Judgments, n: number): (a: number, b: number) => boolean | undefined {
  return (a, b) => j.judged.get(a * n + b);
}

const STANDALONE_WHY =
  'a shared value this variant reused was replayed from a stored value of an older version, which recorded no cost: --no-stored-values measures it';
const STANDALONE_UNKNOWN = { standalone_runtime_s: STANDALONE_WHY, standalone_cpu_s: STANDALONE_WHY, standalone_cost_usd: STANDALONE_WHY };

/**
 * What the variant would cost run alone (runtime/shared-costs.ts): its own cost, plus that of the
 * work of earlier variants it reused; its own when it reused none.
 */
function standaloneMeasures(r: BackendRunResult): Record<string, number | null> {
  const s = r.standalone ?? { runtimeS: r.runtimeS, cpuS: r.cpuS, costUsd: r.costUsd };
  if (s === 'unknown') return { standalone_runtime_s: null, standalone_cpu_s: null, standalone_cost_usd: null };
  return { standalone_runtime_s: s.runtimeS, standalone_cpu_s: s.cpuS, standalone_cost_usd: s.costUsd };
}

/** The pairs file, and the spans (with a few examples for the report) and tables files the plan declares. */
async function outputFiles(
  variant: string,
  plan: Plan,
  outputs: PlanOutputs,
  docs: DocumentSet,
  pairsFile: Promise<{ pieces: readonly Buffer[]; rows: number }>,
  examples: { readonly kinds?: readonly SpanKind[]; readonly replyPairs?: ReadonlySet<string> },
): Promise<{ record: OutputFileRecord; bytes: FileBytes }[]> {
  const ids = docs.ids;
  const files: { record: OutputFileRecord; bytes: FileBytes }[] = [];
  const pairs = await pairsFile;
  files.push({ record: { file: `pairs/${variant}.csv.gz`, rows: pairs.rows, description: 'doc_a, doc_b, score' }, bytes: pairs.pieces });
  if (plan.output.spans) {
    const spans = outputs.spans ?? [];
    files.push({ record: { file: `spans/${variant}.csv.gz`, rows: spans.length, description: 'shared text: character offsets, and units where the detector has them' }, bytes: spansCsvGz(spans, ids) });
    const ex = spanExamples(variant, spans, docs, examples);
    files.push({
      record: { file: `span-examples/${variant}.json`, rows: ex.examples.length, description: 'a few matched pairs with excerpts of both texts and their spans, for the report' },
      bytes: Buffer.from(JSON.stringify(ex, null, 1) + '\n'),
    });
  }
  for (const t of plan.output.tables ?? []) {
    const records = outputs.tables?.[t.dataset] ?? [];
    files.push({ record: { file: `${t.folder}/${variant}.csv.gz`, rows: records.length, description: t.description }, bytes: tableCsvGz(t, records, ids) });
  }
  for (const k of outputs.kept ?? []) files.push({ record: { file: keptFilePath(variant, k.name), rows: 0, description: k.description }, bytes: Buffer.from(k.bytes.buffer, k.bytes.byteOffset, k.bytes.byteLength) });
  return files;
}
