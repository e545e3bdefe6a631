/**
 * `bench run`: read → plan → execute → evaluate → write, the whole experiment of one config.
 *
 *   1. load and validate the config, expand sweeps (load.ts, sweep.ts)
 *   2. read the corpus once (corpus/read.ts) into an indexed document set
 *   3. for the ground truth, then every variant: plan with its adapter, run on the backend,
 *      compare with the ground truth (evaluate/), keep the ground truth's pairs only
 *   4. write run.json, metrics.csv, distribution.csv, pairs/*.csv.gz, report.html into a temporary
 *      folder, renamed into place at the end (results/run-folder.ts)
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BUILTIN_DETECTORS, findDetector, type DetectorCatalog } from '../detectors.ts';
import type { AlgorithmAdapter, DocumentSet, MeasuredVariant, PairList, Plan } from '../../contract/index.ts';
import { describeSkip } from '../corpus/read.ts';
import type { ReadContext } from '../corpus/types.ts';
import { runStudies } from '../evaluate/studies/index.ts';
import { sortPairs } from '../evaluate/sorted-pairs.ts';
import { evaluateVariant, type TruthSummary } from '../evaluate/variant.ts';
import { DataError, UserError } from '../errors.ts';
import type { Backend } from '../mapreduce/backend.ts';
import type { PlanOutputs } from '../mapreduce/outputs.ts';
import { createBackend } from '../mapreduce/backends.ts';
import type { Progress } from '../progress.ts';
import { gitState, machine } from '../results/environment.ts';
import { runMeasures, type MeasureInfo } from '../results/measures.ts';
import { distributionCsv, metricsCsv } from '../results/metrics-csv.ts';
import { spansCsvGz, tableCsvGz } from '../results/output-files.ts';
import { pairsCsvGz } from '../results/pairs-file.ts';
import { RunFolder } from '../results/run-folder.ts';
import { RUN_SCHEMA_VERSION, type FigureRecord, type OutputFileRecord, type RunRecord, type VariantRecord } from '../results/types.ts';
import { readExperimentCorpus, type CorpusRead } from './corpus.ts';
import { chooseBackend } from './backend-choice.ts';
import { dryRunPlan } from './dry-run.ts';
import { filterVariants, loadExperiment, strictly } from './load.ts';
import type { BackendConfig, Experiment, Variant } from './types.ts';

export interface RunOptions {
  readonly configFile: string;
  /** results root; the run goes to `<outRoot>/<experiment>/<run-id>/` */
  readonly outRoot: string;
  readonly only: readonly string[];
  readonly force: boolean;
  readonly runId?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly progress: Progress;
  readonly signal: AbortSignal;
  /** writes report.html; injected so the runner does not depend on the report's size */
  readonly writeReport?: (runDir: string) => Promise<void>;
  /** `--strict`: every skipped or recovered record is an error (as `corpus.strict: true`) */
  readonly strict?: boolean;
  /** `--backend KIND`: run on another backend than the config's `backend` */
  readonly backendKind?: string;
  /** the detectors variants come from (default: algorithms/); tests bring their own */
  readonly detectors?: DetectorCatalog;
  /** `--dry-run`: return the plan instead of running; `documents` estimates the input */
  readonly dryRun?: { readonly documents?: number; readonly documentBytes?: number };
}

export type RunOutcome =
  | { readonly kind: 'completed'; readonly dir: string; readonly record: RunRecord }
  | { readonly kind: 'dry-run'; readonly plan: unknown }
  | { readonly kind: 'already-complete'; readonly dir: string };

/**
 * Pairs a plan reports: every pair it finds (score > 0). The measures need the exact score of
 * every pair above `min_score` in either the run or the ground truth, and a score cut at the
 * floor would turn a true 0.08 into 0 (DESIGN.md: an unreported pair scores 0).
 */
const REPORT_FLOOR = Number.MIN_VALUE;

export async function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  const detectors = opts.detectors ?? BUILTIN_DETECTORS;
  const loaded = await loadExperiment(opts.configFile, opts.env, detectors);
  const exp = opts.strict ? strictly(loaded) : loaded;
  const variants = opts.only.length > 0 ? filterVariants(exp, [...opts.only]) : exp.variants;
  const backendConfig = chooseBackend(exp, opts.backendKind);
  const runId = opts.runId ?? defaultRunId(exp, opts.only, backendConfig);
  if (opts.dryRun) {
    const plan = await dryRunPlan(exp, detectors, {
      backend: backendConfig,
      variants: [exp.groundTruth, ...variants],
      runId,
      reportFloor: REPORT_FLOOR,
      ...opts.dryRun,
    });
    return { kind: 'dry-run', plan };
  }
  const finalDir = RunFolder.finalPath(opts.outRoot, exp.name, runId);
  if (RunFolder.isComplete(finalDir) && !opts.force) return { kind: 'already-complete', dir: finalDir };

  const startedAt = new Date();
  const folder = RunFolder.create(opts.outRoot, exp.name, runId);
  const workDir = mkdtempSync(join(tmpdir(), 'ndd-bench-'));
  let backend: Backend | undefined;
  try {
    const studyWarnings: string[] = [];
    const studySkips: ReadContext = {
      skip: (s) => {
        if (exp.corpus.strict) throw new DataError(`${describeSkip(s)} (strict mode)`);
        studyWarnings.push(`studies: ${describeSkip(s)}`);
      },
    };
    // The backend starts first, so its worker threads load while the corpus is read.
    backend = await createBackend(backendConfig, { preload: workerModules(exp, detectors, [exp.groundTruth, ...variants]), detectors });
    const { docs, corpus } = await readDocuments(exp, opts);
    const all = [exp.groundTruth, ...variants];
    const planned = all.map((v) => planVariant(exp, detectors, v));
    const records: VariantRecord[] = [];
    let truth: (TruthSummary & { measured: MeasuredVariant }) | undefined;
    for (const [i, p] of planned.entries()) {
      opts.signal.throwIfAborted();
      const label = `[${i + 1}/${all.length}] ${p.variant.name}`;
      const r = await runVariant(p, exp, docs, backend, workDir, opts, label, truth);
      if (p.variant.groundTruth) {
        // Sorted once here, every comparison takes the merge's fast path.
        truth = { pairs: sortPairs(r.pairs, docs.ids.length, 'ground truth'), candidates: r.measured.candidates, measured: r.measured };
      }
      for (const f of r.files) folder.write(f.file, f.bytes);
      records.push(r.record);
      opts.progress.log(`${label}: ${(r.record.measures.pairs ?? 0).toLocaleString('en-US')} pairs, ${(r.record.measures.runtime_s ?? 0).toFixed(2)} s`);
    }
    const measures = runMeasures(
      planned.map((p, i) => ({ adapter: p.adapter, has: (key: string) => key in (records[i] as VariantRecord).measures })),
    );
    const tables: Record<string, string> = {};
    if (exp.studies && truth) {
      opts.progress.update('TREC studies');
      for (const t of await runStudies({ ids: docs.ids, truth: truth.pairs, studies: exp.studies, evaluate: exp.evaluate, ctx: studySkips })) {
        folder.write(t.file, t.csv);
        tables[t.file] = t.description;
      }
    }
    const finishedAt = new Date();
    const figures = adapterFigures(planned.map((p) => p.adapter));
    const record = runRecord(exp, runId, backendConfig, { measures, figures, variants: records }, corpus, startedAt, finishedAt, opts, tables, studyWarnings);
    folder.write('metrics.csv', metricsCsv(exp.name, measures, records));
    folder.write('distribution.csv', distributionCsv(exp.evaluate.distribution, records));
    folder.write('run.json', JSON.stringify(record, null, 2) + '\n');
    if (opts.writeReport) await opts.writeReport(folder.tempDir);
    const dir = folder.commit();
    return { kind: 'completed', dir, record };
  } finally {
    folder.discard();
    await backend?.close();
    rmSync(workDir, { recursive: true, force: true });
    opts.progress.done();
  }
}

/** A variant with its adapter and plan. */
interface PlannedVariant {
  readonly variant: Variant;
  readonly adapter: AlgorithmAdapter;
  readonly plan: Plan;
}

function planVariant(exp: Experiment, detectors: DetectorCatalog, v: Variant): PlannedVariant {
  const adapter = findDetector(detectors, v.algorithm);
  if (!adapter) throw new UserError(`${exp.file}: variant ${v.name}: unknown algorithm ${v.algorithm}`);
  return { variant: v, adapter, plan: adapter.plan(v.params, { minScore: REPORT_FLOOR, seed: exp.seed }) };
}

function workerModules(exp: Experiment, detectors: DetectorCatalog, variants: readonly Variant[]): string[] {
  const urls = new Set<string>();
  for (const v of variants) for (const u of planVariant(exp, detectors, v).plan.local?.workerModules ?? []) urls.add(u);
  return [...urls];
}

/** Each adapter's figures once, in the order the adapters first appear. */
function adapterFigures(adapters: readonly AlgorithmAdapter[]): FigureRecord[] {
  const seen = new Set<string>();
  return adapters.flatMap((a) => {
    if (seen.has(a.name)) return [];
    seen.add(a.name);
    return (a.figures ?? []).map((f) => ({ ...f, algorithm: a.name }));
  });
}

/** The run id is the cache key: the same config and variant selection give the same folder. */
function defaultRunId(exp: Experiment, only: readonly string[], backend: BackendConfig): string {
  const h = createHash('sha256').update(exp.hash).update(JSON.stringify([...only].sort()));
  // The config's own backend is part of its hash already; another one makes another run.
  if (backend !== exp.backend) h.update(JSON.stringify(backend));
  return h.digest('hex').slice(0, 12);
}

async function readDocuments(
  exp: Experiment,
  opts: RunOptions,
): Promise<{ docs: DocumentSet; corpus: RunRecord['corpus']; subset: CorpusRead['subset'] }> {
  const r = await readExperimentCorpus(exp, {
    signal: opts.signal,
    onDocument: (n) => {
      if (n % 500 === 0) opts.progress.update('reading documents', n);
    },
  });
  return {
    docs: r.docs,
    subset: r.subset,
    corpus: {
      format: exp.corpus.format,
      path: exp.corpus.path ?? null,
      documents: r.docs.ids.length,
      read: r.stats.read,
      skipped: r.stats.skipped,
      recovered: r.stats.recovered,
      skips: r.stats.skips.slice(0, 100),
      read_s: r.seconds,
      ...(r.subset
        ? { subset: { selected: r.subset.spec.ids.size, outside: r.subset.outside, missing: r.subset.missing } }
        : {}),
    },
  };
}

async function runVariant(
  p: PlannedVariant,
  exp: Experiment,
  docs: DocumentSet,
  backend: Backend,
  workDir: string,
  opts: RunOptions,
  label: string,
  truth: (TruthSummary & { measured: MeasuredVariant }) | undefined,
): Promise<{ pairs: PairList; record: VariantRecord; measured: MeasuredVariant; files: { file: string; bytes: Buffer }[] }> {
  const { variant: v, adapter, plan } = p;
  const result = await backend.run(
    { variant: v.name, algorithm: v.algorithm, params: v.params, minScore: REPORT_FLOOR, seed: exp.seed, plan },
    {
      docs,
      workDir,
      signal: opts.signal,
      progress: (phase, done, total) => opts.progress.update(`${label} ${phase}`, done, total),
    },
  );
  const { pairs } = result.outputs;
  const ev = evaluateVariant({ pairs, output: plan.output, counters: result.counters, documents: docs.ids.length, evaluate: exp.evaluate, truth });
  const measured: MeasuredVariant = { groundTruth: v.groundTruth, counters: result.counters, candidates: ev.measures.candidate_pairs ?? null };
  const measures: Record<string, number | null> = {
    docs: docs.ids.length,
    ...ev.measures,
    runtime_s: result.runtimeS,
    cpu_s: result.cpuS,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    cost_usd: result.costUsd,
  };
  for (const m of adapter.measures ?? []) {
    measures[m.key] = 'shows' in m ? (measures[m.shows] ?? null) : m.value(measured, truth?.measured ?? measured);
  }
  const files = outputFiles(v.name, plan, result.outputs, docs.ids, ev.pairsFileFloor);
  return {
    pairs,
    measured,
    files: files.map(({ record, bytes }) => ({ file: record.file, bytes })),
    record: {
      name: v.name,
      algorithm: v.algorithm,
      ground_truth: v.groundTruth,
      params: v.params,
      swept: v.swept,
      score: plan.output.score,
      decisions: plan.output.decisions,
      measures,
      not_applicable: ev.notApplicable,
      pairs_compared: ev.pairsCompared,
      distribution: ev.distribution,
      counters: result.counters,
      files: files.map((f) => f.record),
      warnings: ev.warnings,
      ...(result.extra ? { backend_extra: result.extra } : {}),
    },
  };
}

/** The pairs file, and the spans and tables files the plan declares. */
function outputFiles(
  variant: string,
  plan: Plan,
  outputs: PlanOutputs,
  ids: readonly string[],
  pairsFloor: number,
): { record: OutputFileRecord; bytes: Buffer }[] {
  const files: { record: OutputFileRecord; bytes: Buffer }[] = [];
  const pairs = pairsCsvGz(outputs.pairs, ids, pairsFloor);
  files.push({ record: { file: `pairs/${variant}.csv.gz`, rows: pairs.rows, description: 'doc_a, doc_b, score' }, bytes: pairs.bytes });
  if (plan.output.spans) {
    const spans = outputs.spans ?? [];
    files.push({ record: { file: `spans/${variant}.csv.gz`, rows: spans.length, description: 'shared text: character offsets, and units where the detector has them' }, bytes: spansCsvGz(spans, ids) });
  }
  for (const t of plan.output.tables ?? []) {
    const records = outputs.tables?.[t.dataset] ?? [];
    files.push({ record: { file: `${t.folder}/${variant}.csv.gz`, rows: records.length, description: t.description }, bytes: tableCsvGz(t, records, ids) });
  }
  return files;
}

function runRecord(
  exp: Experiment,
  runId: string,
  backendConfig: BackendConfig,
  results: { measures: MeasureInfo[]; figures: FigureRecord[]; variants: VariantRecord[] },
  corpus: RunRecord['corpus'],
  startedAt: Date,
  finishedAt: Date,
  opts: RunOptions,
  tables: Record<string, string>,
  extraWarnings: readonly string[],
): RunRecord {
  const { variants } = results;
  const warnings: string[] = [...extraWarnings];
  for (const v of variants) for (const w of v.warnings) warnings.push(`${v.name}: ${w}`);
  for (const [reason, n] of Object.entries(corpus.skipped)) warnings.push(`corpus: ${n} records skipped (${reason})`);
  for (const [reason, n] of Object.entries(corpus.recovered)) warnings.push(`corpus: ${n} records read with a fallback (${reason})`);
  if (corpus.subset && corpus.subset.missing > 0) {
    warnings.push(`corpus: ${corpus.subset.missing} of the ${corpus.subset.selected} subset documents are not in the collection`);
  }
  return {
    schema_version: RUN_SCHEMA_VERSION,
    status: 'completed',
    experiment: exp.name,
    ...(exp.description !== undefined ? { description: exp.description } : {}),
    run_id: runId,
    config_file: relative(process.cwd(), resolve(opts.configFile)) || opts.configFile,
    config_hash: exp.hash,
    config: exp.resolved,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    git: gitState(process.cwd()),
    environment: machine(),
    backend: { ...backendConfig },
    corpus,
    evaluate: { ...exp.evaluate },
    measures: results.measures,
    figures: results.figures,
    variants,
    warnings,
    tables,
    totals: {
      runtime_s: sum(variants, 'runtime_s'),
      cpu_s: sum(variants, 'cpu_s'),
      cost_usd: sum(variants, 'cost_usd'),
      peak_rss_mb: Math.max(0, ...variants.map((v) => v.measures.peak_rss_mb ?? 0)),
    },
  };
}

function sum(variants: readonly VariantRecord[], key: string): number {
  return variants.reduce((s, v) => s + (v.measures[key] ?? 0), 0);
}
