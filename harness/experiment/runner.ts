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
import { findAdapter } from '../../algorithms/registry.ts';
import type { DocumentSet, PairList } from '../../algorithms/types.ts';
import { describeSkip } from '../corpus/read.ts';
import type { ReadContext } from '../corpus/types.ts';
import { compareWithTruth } from '../evaluate/compare.ts';
import { runStudies } from '../evaluate/studies/index.ts';
import { sortPairs } from '../evaluate/sorted-pairs.ts';
import { nearDuplicateDistribution } from '../evaluate/distribution.ts';
import { DataError, UserError } from '../errors.ts';
import type { Backend } from '../mapreduce/backend.ts';
import { createBackend } from '../mapreduce/backends.ts';
import type { Progress } from '../progress.ts';
import { toCsv, type Cell } from '../results/csv.ts';
import { gitState, machine } from '../results/environment.ts';
import { pairsCsvGz } from '../results/pairs-file.ts';
import { RunFolder } from '../results/run-folder.ts';
import {
  METRICS_COLUMNS,
  METRICS_LEAD,
  RUN_SCHEMA_VERSION,
  type RunRecord,
  type VariantRecord,
} from '../results/types.ts';
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
  const loaded = await loadExperiment(opts.configFile, opts.env);
  const exp = opts.strict ? strictly(loaded) : loaded;
  const variants = opts.only.length > 0 ? filterVariants(exp, [...opts.only]) : exp.variants;
  const backendConfig = chooseBackend(exp, opts.backendKind);
  const runId = opts.runId ?? defaultRunId(exp, opts.only, backendConfig);
  if (opts.dryRun) {
    const plan = await dryRunPlan(exp, {
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
    backend = await createBackend(backendConfig, { preload: workerModules([exp.groundTruth, ...variants]) });
    const { docs, corpus } = await readDocuments(exp, opts);
    const all = [exp.groundTruth, ...variants];
    const records: VariantRecord[] = [];
    let truth: PairList | undefined;
    let truthMr1: number | null = null;
    for (const [i, v] of all.entries()) {
      opts.signal.throwIfAborted();
      const label = `[${i + 1}/${all.length}] ${v.name}`;
      const { pairs, record } = await runVariant(v, exp, docs, backend, workDir, opts, label, truth, truthMr1);
      if (v.groundTruth) {
        // Sorted once here, every comparison takes the merge's fast path.
        truth = sortPairs(pairs, docs.ids.length, 'ground truth');
        truthMr1 = record.mr1_output_pairs;
      }
      folder.write(join('pairs', `${v.name}.csv.gz`), pairsCsvGz(pairs, docs.ids, exp.evaluate.min_score));
      records.push(record);
      opts.progress.log(
        `${label}: ${record.pairs.toLocaleString('en-US')} pairs, ${record.runtime_s.toFixed(2)} s`,
      );
    }
    const tables: Record<string, string> = {};
    if (exp.studies && truth) {
      opts.progress.update('TREC studies');
      for (const t of await runStudies({ ids: docs.ids, truth, studies: exp.studies, evaluate: exp.evaluate, ctx: studySkips })) {
        folder.write(t.file, t.csv);
        tables[t.file] = t.description;
      }
    }
    const finishedAt = new Date();
    const record = runRecord(exp, runId, backendConfig, records, corpus, startedAt, finishedAt, opts, tables, studyWarnings);
    folder.write('metrics.csv', metricsCsv(exp, records, docs.ids.length));
    folder.write('distribution.csv', distributionCsv(exp, records));
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

function workerModules(variants: readonly Variant[]): string[] {
  const urls = new Set<string>();
  for (const v of variants) {
    for (const u of findAdapter(v.algorithm)?.plan(v.params, { minScore: REPORT_FLOOR }).localModules ?? []) urls.add(u);
  }
  return [...urls];
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
  v: Variant,
  exp: Experiment,
  docs: DocumentSet,
  backend: Backend,
  workDir: string,
  opts: RunOptions,
  label: string,
  truth: PairList | undefined,
  truthMr1: number | null,
): Promise<{ pairs: PairList; record: VariantRecord }> {
  const adapter = findAdapter(v.algorithm);
  if (!adapter) throw new UserError(`${exp.file}: variant ${v.name}: unknown algorithm ${v.algorithm}`);
  const plan = adapter.plan(v.params, { minScore: REPORT_FLOOR });
  const result = await backend.run(
    { variant: v.name, algorithm: v.algorithm, params: v.params, minScore: REPORT_FLOOR, plan },
    {
      docs,
      workDir,
      signal: opts.signal,
      progress: (phase, done, total) => opts.progress.update(`${label} ${phase}`, done, total),
    },
  );
  const n = docs.ids.length;
  const reference = truth ?? result.pairs;
  const cmp = compareWithTruth(reference, result.pairs, n, {
    minScore: exp.evaluate.min_score,
    threshold: exp.evaluate.threshold,
  });
  const firstJob = plan.jobs[0]?.name;
  const mr1 = firstJob ? (result.counters[firstJob]?.output_pairs ?? 0) : null;
  const reduction =
    v.groundTruth || truthMr1 === null || mr1 === null || truthMr1 === 0 ? (v.groundTruth ? 0 : null) : 100 * (1 - mr1 / truthMr1);
  let reported = 0;
  for (const s of result.pairs.score) if (s >= exp.evaluate.min_score) reported++;
  return {
    pairs: result.pairs,
    record: {
      name: v.name,
      algorithm: v.algorithm,
      ground_truth: v.groundTruth,
      params: v.params,
      swept: v.swept,
      pairs: reported,
      metrics: {
        avg_error: cmp.avgError,
        correlation: cmp.correlation,
        precision_docs: cmp.precisionDocs,
        recall_docs: cmp.recallDocs,
        precision_pairs: cmp.precisionPairs,
        recall_pairs: cmp.recallPairs,
        f1_pairs: cmp.f1Pairs,
        pairs_compared: cmp.pairsCompared,
      },
      mr1_output_pairs: mr1,
      mr1_reduction_pct: reduction,
      distribution: nearDuplicateDistribution(result.pairs, n, exp.evaluate.distribution),
      runtime_s: result.runtimeS,
      cpu_s: result.cpuS,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
      cost_usd: result.costUsd,
      counters: result.counters,
      warnings: cmp.warnings,
      ...(result.extra ? { backend_extra: result.extra } : {}),
    },
  };
}

function runRecord(
  exp: Experiment,
  runId: string,
  backendConfig: BackendConfig,
  variants: VariantRecord[],
  corpus: RunRecord['corpus'],
  startedAt: Date,
  finishedAt: Date,
  opts: RunOptions,
  tables: Record<string, string>,
  extraWarnings: readonly string[],
): RunRecord {
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
    variants,
    warnings,
    tables,
    totals: {
      runtime_s: variants.reduce((s, v) => s + v.runtime_s, 0),
      cpu_s: variants.reduce((s, v) => s + v.cpu_s, 0),
      cost_usd: variants.reduce((s, v) => s + v.cost_usd, 0),
      peak_rss_mb: Math.max(0, ...variants.map((v) => v.peak_rss_mb)),
    },
  };
}

/** Union of keys in first-seen order, so columns are stable for a config. */
function orderedKeys(objs: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const o of objs) for (const k of Object.keys(o)) seen.add(k);
  return [...seen];
}

function metricsCsv(exp: Experiment, records: readonly VariantRecord[], docs: number): string {
  const swept = orderedKeys(records.map((r) => r.swept));
  const counterCols = orderedKeys(
    records.map((r) =>
      Object.fromEntries(Object.entries(r.counters).flatMap(([g, names]) => Object.keys(names).map((n) => [`${g}.${n}`, 1]))),
    ),
  );
  const header = [...METRICS_LEAD, ...swept, ...METRICS_COLUMNS, ...counterCols];
  const rows = records.map((r): Cell[] => [
    exp.name,
    r.name,
    r.algorithm,
    ...swept.map((k) => r.swept[k] ?? null),
    docs,
    r.pairs,
    r.metrics.avg_error,
    r.metrics.correlation,
    r.metrics.precision_docs,
    r.metrics.recall_docs,
    r.metrics.precision_pairs,
    r.metrics.recall_pairs,
    r.metrics.f1_pairs,
    r.runtime_s.toFixed(3),
    r.cpu_s.toFixed(3),
    r.peak_rss_mb.toFixed(1),
    r.cost_usd.toFixed(8),
    r.mr1_output_pairs,
    r.mr1_reduction_pct,
    ...counterCols.map((c) => {
      const dot = c.indexOf('.');
      return r.counters[c.slice(0, dot)]?.[c.slice(dot + 1)] ?? 0;
    }),
  ]);
  return toCsv(header, rows);
}

function distributionCsv(exp: Experiment, records: readonly VariantRecord[]): string {
  const header = ['rr_threshold', ...records.map((r) => r.name)];
  const rows = exp.evaluate.distribution.map((t, i): Cell[] => [t, ...records.map((r) => r.distribution[i] ?? null)]);
  return toCsv(header, rows);
}
