/**
 * `bench run`: read → plan → execute → evaluate → write, the whole experiment of one config.
 *
 *   1. load and validate the config, expand sweeps (load.ts, sweep.ts); check the run id and
 *      what is at the results path (a run of other inputs, or not a run at all, is not replaced)
 *   2. take the run id's lock, open the checkpoint (`--resume`), read the corpus once
 *   3. for the ground truth, then every variant: plan, run on the backend, compare with the
 *      ground truth (variant-run.ts), save to the checkpoint; or take it from the checkpoint
 *   4. write metrics.csv, distribution.csv, pairs/, spans/, tables, then run.json listing every
 *      file with its SHA-256, and report.html into a temporary folder renamed into place at the
 *      end (results/run-folder.ts)
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AlgorithmAdapter, DocumentSet, PairList } from '../../contract/index.ts';
import { builtinDetectors, type DetectorCatalog } from '../detectors.ts';
import { describeSkip } from '../corpus/read.ts';
import { loadSpanOracle } from '../evaluate/oracle.ts';
import { loadReplyOracle } from '../evaluate/replies.ts';
import type { CorpusCacheOptions } from '../corpus/cache.ts';
import { storeBesideCorpusCache, ValueStore } from './stored-values.ts';
import { documentWordCounts, useWordCounts } from '../evaluate/size-groups.ts';
import { wordCountsCodec } from '../../algorithms/text/word-count.ts';
import type { ParsePool, ReadContext } from '../corpus/types.ts';
import { runStudies } from '../evaluate/studies/index.ts';
import { sortPairs } from '../evaluate/sorted-pairs.ts';
import { DataError, UserError } from '../errors.ts';
import type { Backend } from '../mapreduce/backend.ts';
import { createBackend } from '../mapreduce/backends.ts';
import type { Progress } from '../progress.ts';
import { Checkpoint, checkpointDir, variantIdentity } from '../results/checkpoint.ts';
import { gitStateAsync } from '../results/environment.ts';
import { fingerprintInputs, inputChanges } from './inputs.ts';
import { listRunFiles, verifyRunFiles, type FileEntry } from '../results/manifest.ts';
import { runMeasures } from '../results/measures.ts';
import { distributionCsv, metricsCsv } from '../results/metrics-csv.ts';
import { evaluationTables, exactDuplicatesTable } from '../results/evaluation-tables.ts';
import type { SliceTable } from '../results/slices-csv.ts';
import { checkRunId } from '../results/run-id.ts';
import { RunFolder } from '../results/run-folder.ts';
import type { FigureRecord, InputsFingerprint, RunRecord, VariantRecord } from '../results/types.ts';
import { readExperimentCorpus } from './corpus.ts';
import { runRecord, type PhaseTimes } from './run-record.ts';
import { planVariant, REPORT_FLOOR, runVariant, truthFloor, type PlannedVariant, type Truth } from './variant-run.ts';
import { runExpandedVariant } from './expanded-variant.ts';
import { createWorkDir, removeDeadWorkDirs, userWorkRoot } from './work-dirs.ts';
import { chooseBackend } from './backend-choice.ts';
import { dryRunPlan } from './dry-run.ts';
import { filterVariants } from './config/only.ts';
import { loadExperiment, strictly } from './load.ts';
import type { BackendConfig, Experiment } from './types.ts';
import { grouped } from '../format.ts';

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
  /** `--resume`: take the variants an interrupted or failed run of the same inputs finished from its checkpoint */
  readonly resume?: boolean;
  /** `--hash-inputs`: fingerprint input files by their content (SHA-256), not by size and time */
  readonly hashInputs?: boolean;
  /** the corpus cache (corpus/cache.ts; its `method` follows `hashInputs`); none when absent */
  readonly corpusCache?: CorpusCacheOptions;
  /** `--no-stored-values`: false to compute what kernels would replay from beside the corpus cache (stored-values.ts) */
  readonly storedValues?: boolean;
  /** one-line notices the user must see even without a TTY (a stale lock removed, a checkpoint kept) */
  readonly notice?: (line: string) => void;
  /** `--dry-run`: return the plan instead of running; `documents` estimates the input */
  readonly dryRun?: { readonly documents?: number; readonly documentBytes?: number };
}

export type RunOutcome =
  | { readonly kind: 'completed'; readonly dir: string; readonly record: RunRecord }
  | { readonly kind: 'dry-run'; readonly plan: unknown }
  | { readonly kind: 'already-complete'; readonly dir: string };

export async function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const loaded = await loadExperiment(opts.configFile, opts.env, opts.detectors, { withoutCollection: opts.dryRun !== undefined });
  // The ones the config names, as loadExperiment loaded them (a module is loaded once).
  const detectors = opts.detectors ?? (await builtinDetectors([loaded.groundTruth.algorithm, ...loaded.variants.map((v) => v.algorithm)]));
  const exp = opts.strict ? strictly(loaded) : loaded;
  const variants = opts.only.length > 0 ? filterVariants(exp, [...opts.only]) : exp.variants;
  const backendConfig = chooseBackend(exp, opts.backendKind);
  const runId = checkRunId(opts.runId ?? defaultRunId(exp, opts.only, backendConfig));
  if (opts.dryRun) {
    const plan = await dryRunPlan(exp, detectors, {
      backend: backendConfig,
      variants: [exp.groundTruth, ...variants],
      runId,
      reportFloor: REPORT_FLOOR,
      truthFloor: truthFloor(exp, variants),
      ...opts.dryRun,
    });
    return { kind: 'dry-run', plan };
  }
  const notice = opts.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
  const finalDir = RunFolder.finalPath(opts.outRoot, exp.name, runId);
  const inputs = await fingerprintInputs(exp, opts.hashInputs ? 'content' : 'stat', detectors);
  if (existingRunIsCurrent(finalDir, exp.name, runId, inputs, opts.force)) return { kind: 'already-complete', dir: finalDir };

  const startedAt = new Date();
  const git = gitStateAsync(process.cwd());
  // From here the run id's lock is held: every later step is inside the try, whose finally
  // releases it (RunFolder.close, last of all).
  const folder = RunFolder.create(opts.outRoot, exp.name, runId, notice);
  const all = [exp.groundTruth, ...variants];
  let checkpoint: Checkpoint | undefined;
  let workDir: string | undefined;
  let backend: Backend | undefined;
  let store: ValueStore | undefined;
  let completed = false;
  try {
    const opened = Checkpoint.open(checkpointDir(join(opts.outRoot, exp.name), runId), inputs.digest, opts.resume === true);
    checkpoint = opened.checkpoint;
    if (opened.discarded) notice(`note: the saved variants of an earlier run of ${finalDir} were discarded: ${opened.discarded}`);
    const workRoot = userWorkRoot();
    removeDeadWorkDirs(workRoot, notice);
    workDir = createWorkDir(workRoot);
    const studyWarnings: string[] = [];
    const studySkips: ReadContext = {
      skip: (s) => {
        if (exp.corpus.strict) throw new DataError(`${describeSkip(s)} (strict mode)`);
        studyWarnings.push(`studies: ${describeSkip(s)}`);
      },
    };
    // The backend starts first, so that its worker threads, when it starts them now (below),
    // load while the corpus is read. Planned once: the plans name the worker modules the
    // backend preloads, and then run.
    const planned = all.map((v) => planVariant(exp, detectors, v, v.groundTruth ? truthFloor(exp, variants) : REPORT_FLOOR));
    store = opts.corpusCache && opts.storedValues !== false ? new ValueStore(storeBesideCorpusCache(opts.corpusCache)) : undefined;
    // Threads start with the backend when the work will need them: several variants' joins,
    // or values to compute that no store may hold. A run of one variant with stored values
    // starts them when its work turns out to need them (a small join replayed needs none).
    const startThreads = planned.length > 1 || store === undefined;
    backend = await createBackend(backendConfig, { preload: workerModules(planned), startThreads, detectors, runId, resume: opts.resume === true, ...(store ? { store } : {}) });
    const { docs, corpus, exactDuplicates } = await readDocuments(exp, opts, backend.threads, inputs);
    // Every variant's evaluation groups documents by their words: counted once, or replayed.
    if (store) useWordCounts(docs, (await store.get(docs, wordCountsCodec(), () => Promise.resolve(documentWordCounts(docs)))).value);
    const spanOracle = exp.evaluate.oracle === undefined ? undefined : loadSpanOracle(exp.evaluate.oracle, docs);
    const replies = exp.evaluate.replies === undefined ? undefined : loadReplyOracle(docs, exp.evaluate.replies);
    const tRead = performance.now();
    const cpuRead = process.cpuUsage(cpu0);
    const records: VariantRecord[] = [];
    const resumed: string[] = [];
    let truth: Truth | undefined;
    const sortTruth = (p: PairList): PairList => sortPairs(p, docs.ids.length, 'ground truth');
    for (const [i, p] of planned.entries()) {
      opts.signal.throwIfAborted();
      const label = `[${i + 1}/${all.length}] ${p.variant.name}`;
      if (p.expansion) {
        // Trials averaged or calibration runs, each a row of its own (expanded-variant.ts).
        const progress = (phase: string, done?: number, total?: number): void => opts.progress.update(`${label} ${phase}`, done, total);
        const vctx = { exp, docs, backend, workDir, signal: opts.signal, progress, ...(spanOracle ? { spanOracle } : {}) };
        const out = await runExpandedVariant({ planned: { ...p, expansion: p.expansion }, position: i + 1, ctx: vctx, truth, sortTruth, checkpoint, write: (f, b) => folder.write(f, b), log: (line) => opts.progress.log(line) });
        if (out.resumed) resumed.push(p.variant.name);
        records.push(...out.records);
        opts.progress.log(`${label}: ${out.resumed ? 'resumed from the checkpoint' : `${out.records.length - 1} runs`}`);
        continue;
      }
      // A ground truth saved from another floor holds other pairs (truthFloor).
      const identity = variantIdentity(p.variant.algorithm, p.variant.params) + (p.minScore === REPORT_FLOOR ? '' : ` from ${p.minScore}`);
      const saved = checkpoint.restore(p.variant.name, identity);
      if (saved && (!p.variant.groundTruth || saved.truth)) {
        resumed.push(p.variant.name);
        if (p.variant.groundTruth && saved.truth) {
          const c = saved.record.measures.candidate_pairs;
          truth = { pairs: saved.truth, candidates: c ?? null, measured: { groundTruth: true, counters: saved.record.counters, candidates: c ?? null } };
        }
        for (const f of saved.files) folder.write(f.file, f.bytes);
        records.push(saved.record);
        opts.progress.log(`${label}: resumed from the checkpoint`);
        continue;
      }
      const r = await runVariant(
        p,
        { position: i + 1 },
        {
          exp,
          docs,
          backend,
          workDir,
          signal: opts.signal,
          progress: (phase, done, total) => opts.progress.update(`${label} ${phase}`, done, total),
          ...(spanOracle ? { spanOracle } : {}),
          ...(replies ? { replies } : {}),
        },
        truth,
        sortTruth,
      );
      if (r.truth) truth = r.truth;
      for (const f of r.files) folder.write(f.file, f.bytes);
      checkpoint.save(p.variant.name, identity, { record: r.record, files: r.files, ...(r.truth ? { truth: r.truth.pairs } : {}) });
      records.push(r.record);
      opts.progress.log(`${label}: ${grouped(r.record.measures.pairs ?? 0)} pairs, ${(r.record.measures.runtime_s ?? 0).toFixed(2)} s`);
    }
    const tVariants = performance.now();
    const cpuVariants = process.cpuUsage();
    const adapterOf = new Map(planned.map((p) => [p.variant.name, p.adapter]));
    const measures = runMeasures(records.map((r) => ({ adapter: adapterOf.get(r.part_of?.variant ?? r.name) as AlgorithmAdapter, has: (key: string) => key in r.measures })));
    const tables: Record<string, string> = {};
    if (exp.studies && truth) {
      opts.progress.update('TREC studies');
      for (const t of await runStudies({ ids: docs.ids, truth: truth.pairs, studies: exp.studies, evaluate: exp.evaluate, ctx: studySkips })) {
        folder.write(t.file, t.csv);
        tables[t.file] = t.description;
      }
    }
    const tStudies = performance.now();
    const figures = adapterFigures(planned.map((p) => p.adapter));
    folder.write('metrics.csv', metricsCsv(exp.name, measures, records));
    folder.write('distribution.csv', distributionCsv(exp.evaluate.distribution, records));
    for (const t of [...(exactDuplicates ? [exactDuplicates] : []), ...evaluationTables(exp.name, exp.evaluate, records)]) {
      folder.write(t.file, t.csv);
      tables[t.file] = t.description;
    }
    const files: FileEntry[] = listRunFiles(folder.tempDir);
    const cpuAfter = process.cpuUsage(cpuVariants);
    const phases: PhaseTimes = {
      read_s: (tRead - t0) / 1000,
      variants_s: (tVariants - tRead) / 1000,
      studies_s: (tStudies - tVariants) / 1000,
      write_s: (performance.now() - tStudies) / 1000,
      total_s: (performance.now() - t0) / 1000,
      outsideVariantsCpuS: (cpuRead.user + cpuRead.system + cpuAfter.user + cpuAfter.system) / 1e6,
    };
    const record = runRecord({
      exp,
      runId,
      backend: backendConfig,
      measures,
      figures,
      variants: records,
      corpus,
      startedAt,
      finishedAt: new Date(),
      configFile: opts.configFile,
      tables,
      extraWarnings: studyWarnings,
      inputs,
      files,
      resumed,
      phases,
      git: await git,
    });
    folder.write('run.json', JSON.stringify(record, null, 2) + '\n');
    if (opts.writeReport) await opts.writeReport(folder.tempDir);
    const dir = folder.commit();
    checkpoint.remove();
    completed = true;
    return { kind: 'completed', dir, record };
  } finally {
    try {
      // An empty checkpoint goes first, so that the results folder it was in can go with the run.
      if (!completed && checkpoint?.savedVariants === 0) checkpoint.remove();
      await backend?.close();
      // Values computed by the variants are written now, outside their measured time; an
      // interrupted run stops without writing them.
      if (opts.signal.aborted) store?.discard();
      else await store?.flush();
      if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
      opts.progress.done();
      if (!completed && checkpoint && checkpoint.savedVariants > 0) {
        notice(`note: ${checkpoint.savedVariants} of ${all.length} variants are saved in ${checkpoint.dir}; \`bench run ${opts.configFile} --resume\` (with the same options) finishes the run`);
      }
    } finally {
      folder.close();
    }
  }
}

/**
 * Whether the run at `finalDir` is complete, of these inputs, and may be kept; throws a one-line
 * UserError when something else is there, or when replacing it needs `--force`.
 */
function existingRunIsCurrent(finalDir: string, experiment: string, runId: string, inputs: InputsFingerprint, force: boolean): boolean {
  const at = RunFolder.inspect(finalDir, experiment, runId);
  if (at.kind === 'absent') return false;
  if (at.kind === 'foreign') throw new UserError(`${finalDir} exists and is not a run folder (${at.why}): refusing to replace it; give another --run-id or --out`);
  if (force) return false;
  const run = at.run as Partial<RunRecord>;
  const missing = Array.isArray(run.files) ? verifyRunFiles(finalDir, run.files) : 'its run.json lists no files (written by an older version)';
  if (missing !== undefined) throw new UserError(`${finalDir} is an incomplete run (${missing}): --force replaces it`);
  const changes = run.inputs ? inputChanges(run.inputs, inputs) : ['its run.json records no inputs (written by an older version)'];
  if (changes.length > 0) {
    throw new UserError(`${finalDir} is a complete run of this config on other inputs (${changes.join('; ')}): --force replaces it, or give another --run-id`);
  }
  return true;
}

function workerModules(planned: readonly PlannedVariant[]): string[] {
  const urls = new Set<string>();
  for (const p of planned) for (const u of p.plan.local?.workerModules ?? []) urls.add(u);
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
  pool: ParsePool | undefined,
  inputs: InputsFingerprint,
): Promise<{ docs: DocumentSet; corpus: RunRecord['corpus']; exactDuplicates?: SliceTable }> {
  const r = await readExperimentCorpus(exp, {
    // The corpus's fingerprint, the first of the run's inputs (experiment/inputs.ts inputPaths), by the cache's method.
    inputs: inputs.files,
    signal: opts.signal,
    ...(pool ? { pool } : {}),
    ...(opts.corpusCache ? { cache: { ...opts.corpusCache, method: opts.hashInputs ? 'content' : 'stat' } } : {}),
    onDocument: (n) => {
      if (n % 500 === 0) opts.progress.update('reading documents', n);
    },
  });
  return {
    docs: r.docs,
    corpus: {
      format: exp.corpus.format,
      path: exp.corpus.path ?? null,
      documents: r.docs.ids.length,
      read: r.stats.read,
      skipped: r.stats.skipped,
      recovered: r.stats.recovered,
      skips: r.stats.skips.slice(0, 100),
      read_s: r.seconds,
      cache: r.stats.cache,
      ...(r.subset ? { subset: { selected: r.subset.spec.ids.size, outside: r.subset.outside, missing: r.subset.missing } } : {}),
      ...(r.exactDuplicates ? { exact_duplicates: { groups: r.exactDuplicates.groups.length, removed: r.exactDuplicates.removed } } : {}),
    },
    ...(r.exactDuplicates ? { exactDuplicates: exactDuplicatesTable(r.exactDuplicates.groups) } : {}),
  };
}
