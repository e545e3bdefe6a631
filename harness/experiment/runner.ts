/**
 * `bench run`: the whole experiment of one config, as a pipeline of named steps.
 *
 *   1. prepare (run-prepare.ts): load and validate the config, expand sweeps, pick the variants,
 *      the backend and the run id, fingerprint the inputs, and check what is at the results path
 *   2. open: take the run id's lock, open the checkpoint (`--resume`), build the runtime (the
 *      threads and stored values: runtime/runtime.ts) and the backend on it
 *   3. read (run-read.ts): the corpus, on the runtime's threads, and what every evaluation needs
 *   4. variants (run-variants.ts): the ground truth, then every variant, each one resumable step
 *   5. write (run-write.ts): the tables, run.json and the report into a temporary folder,
 *      renamed into place (results/run-folder.ts)
 * Whatever happens, the resources of step 2 are released in reverse order (`closeRun`).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import type { DocumentSet, PairScorer, Plan, StoreCodec } from '../../contract/index.ts';
import type { DetectorCatalog } from '../detectors.ts';
import { InterruptedError, noteKept, UserError } from '../errors.ts';
import type { CorpusCacheOptions } from '../corpus/cache.ts';
import type { Backend } from '../mapreduce/backend.ts';
import { createBackend } from '../mapreduce/backends.ts';
import type { Progress } from '../progress.ts';
import { Checkpoint, checkpointDir } from '../results/checkpoint.ts';
import { gitStateAsync } from '../results/environment.ts';
import { RunFolder } from '../results/run-folder.ts';
import type { RunRecord } from '../results/types.ts';
import { createRuntime, type Runtime } from '../runtime/runtime.ts';
import { storeBesideCorpusCache, ValueStore } from '../runtime/stored-values.ts';
import { startRunClock } from './run-clock.ts';
import { prepareRun, type PreparedRun } from './run-prepare.ts';
import { readRunInput } from './run-read.ts';
import { textsSpill } from './texts-spill.ts';
import { runVariants } from './run-variants.ts';
import type { ErrorSampling, PlannedVariant } from './variant-run.ts';
import { REPORT_FLOOR, truthWithinMemory } from './variant-run.ts';
import { corpusShape } from '../mapreduce/local/backend.ts';
import { writeRun, type WriteOptions } from './run-write.ts';
import type { Experiment } from './types.ts';
import { createWorkDir, removeDeadWorkDirs, userWorkRoot } from './work-dirs.ts';

export interface RunOptions {
  readonly configFile: string;
  /** results root; the run goes to `<outRoot>/<experiment>/<run-id>/` */
  readonly outRoot: string;
  readonly only: readonly string[];
  readonly runId?: string;
  /** what becomes of what an earlier run of the same id left */
  readonly earlier?: EarlierRun;
  /** how the inputs are read, fingerprinted and replayed */
  readonly inputs?: InputOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly progress: Progress;
  readonly signal: AbortSignal;
  /** writes report.html; injected so the runner does not depend on the report's size */
  readonly writeReport?: WriteOptions['writeReport'];
  /** `--backend KIND`: run on another backend than the config's `backend` */
  readonly backendKind?: string;
  /** the detectors variants come from (default: algorithms/); tests bring their own */
  readonly detectors?: DetectorCatalog;
  /** one-line notices the user must see even without a TTY (a stale lock removed, a checkpoint kept) */
  readonly notice?: (line: string) => void;
  /** The command that finishes this run, `--resume` and every option it had, for the note an interrupted run leaves. */
  readonly resumeCommand?: (runId: string) => string;
  /** `--dry-run`: return the plan instead of running; `documents` estimates the input */
  readonly dryRun?: { readonly documents?: number; readonly documentBytes?: number };
  /** the experiment as loaded, made into the one to run (`bench score`: files as its variants) */
  readonly reshape?: (exp: Experiment) => Experiment;
}

export interface EarlierRun {
  /** `--force` (`replace`): a complete run of the same id is run again and replaced, whatever its inputs; `keep` (default) keeps one of the same inputs */
  readonly complete?: 'keep' | 'replace';
  /**
   * What an interrupted or failed run of the same id saved: `resume` (`--resume`) takes the
   * variants it finished on the same inputs; `discard` (`--force`) starts over; `refuse`
   * (default) stops with exit 2 saying how many variants are saved, so that a saved run is never
   * lost to a command typed without `--resume`.
   */
  readonly checkpoint?: 'resume' | 'discard' | 'refuse';
}

export interface InputOptions {
  /** `--strict` (`fail`): every skipped or recovered record is an error, as `corpus.strict: true`; `config` (default): as the config says */
  readonly skips?: 'config' | 'fail';
  /** `--hash-inputs` (`content`): input files are fingerprinted by their SHA-256, not by size and time (`stat`, default) */
  readonly identifyFilesBy?: 'stat' | 'content';
  /** the corpus cache (corpus/cache.ts; its `method` follows `identifyFilesBy`); none when absent */
  readonly corpusCache?: CorpusCacheOptions;
  /** `--no-stored-values` (`compute`): what kernels would replay from beside the corpus cache is computed; `replay` (default) */
  readonly storedValues?: 'replay' | 'compute';
}

export type RunOutcome =
  | { readonly kind: 'completed'; readonly dir: string; readonly record: RunRecord }
  | { readonly kind: 'dry-run'; readonly plan: unknown }
  | { readonly kind: 'already-complete'; readonly dir: string };

export async function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  const clock = startRunClock();
  const inputs = opts.inputs ?? {};
  const identifyFilesBy = inputs.identifyFilesBy ?? 'stat';
  const prepared = await prepareRun({
    ...opts,
    skips: inputs.skips ?? 'config',
    identifyFilesBy,
    complete: opts.earlier?.complete ?? 'keep',
  });
  if (prepared.kind !== 'run') return prepared;
  const run = prepared.run;
  const startedAt = new Date();
  const git = gitStateAsync(process.cwd());
  // From here the run id's lock is held: every later step is inside the try, whose finally
  // releases what was taken (closeRun), the lock last of all.
  const held: HeldResources = { folder: RunFolder.create(opts.outRoot, run.exp.name, run.runId, noticeOf(opts)) };
  let completed = false;
  try {
    const open = await openRun(held, run, opts);
    // The budget and V8's heap bound the texts held: beyond, they wait in the work folder.
    const budgetMb = 'memory_mb' in run.backend && typeof run.backend.memory_mb === 'number' ? run.backend.memory_mb : undefined;
    const textsMb = 'texts_mb' in run.backend && typeof run.backend.texts_mb === 'number' ? run.backend.texts_mb : undefined;
    const spill = textsSpill({ workDir: open.workDir, heapLimitBytes: getHeapStatistics().heap_size_limit, ...(budgetMb === undefined ? {} : { budgetMb }), ...(textsMb === undefined ? {} : { textsMb }) });
    const input = await readRunInput(run.exp, {
      runtime: open.runtime,
      inputs: run.inputs,
      identifyFilesBy,
      ...(inputs.corpusCache ? { corpusCache: inputs.corpusCache } : {}),
      spill,
      signal: opts.signal,
      progress: opts.progress,
    });
    clock.mark('read');
    // The truth's lookups hold its features in memory: over memory_mb it reports every pair instead.
    const planned = truthWithinMemory(run.planned, { exp: run.exp, detectors: run.detectors, shape: corpusShape(input.docs), budgetBytes: budgetMb === undefined ? undefined : budgetMb * 2 ** 20 });
    const variants = await runVariants(
      planned,
      {
        exp: run.exp,
        docs: input.docs,
        backend: open.backend,
        sizes: input.sizes,
        threadsIfUp: () => open.runtime.threadsIfUp(),
        workDir: open.workDir,
        signal: opts.signal,
        ...(input.spanOracle ? { spanOracle: input.spanOracle } : {}),
        ...(input.replies ? { replies: input.replies } : {}),
        ...(input.planted ? { planted: input.planted } : {}),
        ...(errorSample(run) > 0 ? { errors: errorSampling(run, input.docs, open) } : {}),
        ...(input.judgments ? { judgments: input.judgments } : {}),
        localScorer: (plan) => localScorer(plan, { runtime: open.runtime, docs: input.docs, workDir: open.workDir, signal: opts.signal }),
      },
      { checkpoint: open.checkpoint, write: (f, b) => open.folder.write(f, b) },
      opts.progress,
    );
    clock.mark('variants');
    const record = await writeRun(run, input, variants, open.folder, { configFile: opts.configFile, startedAt, git, clock, progress: opts.progress, ...(opts.writeReport ? { writeReport: opts.writeReport } : {}) });
    const dir = open.folder.commit();
    open.checkpoint.remove();
    completed = true;
    return { kind: 'completed', dir, record };
  } catch (e) {
    // An interrupt, at any step, ends with one line saying what was kept.
    if (opts.signal.aborted) throw new InterruptedError(interruptedLine(held.checkpoint, run, opts));
    // Any other failure, however late (the tables, run.json, the report), keeps what the
    // checkpoint saved: its error says so last (cli.ts), with the command that finishes the run.
    const note = keptLine(held.checkpoint, run);
    if (note) noteKept(e, `${note}; to finish the run: ${resumeCommandOf(opts, run.runId)}`);
    throw e;
  } finally {
    await closeRun(held, { completed, run, opts });
  }
}

/** What a run holds from its lock on, as far as it got: released by `closeRun`, in reverse order. */
interface HeldResources {
  readonly folder: RunFolder;
  checkpoint?: Checkpoint;
  workDir?: string;
  runtime?: Runtime;
  backend?: Backend;
}

type OpenRun = Required<HeldResources>;

/**
 * Opens the checkpoint, makes the work folder, and builds the runtime and the backend on it,
 * each into `held` as it is taken. The runtime comes before the read, so that the threads it
 * starts now load while the corpus is read.
 */
async function openRun(held: HeldResources, run: PreparedRun, opts: RunOptions): Promise<OpenRun> {
  const notice = noticeOf(opts);
  const resume = opts.earlier?.checkpoint === 'resume';
  const dir = checkpointDir(join(opts.outRoot, run.exp.name), run.runId);
  const saved = Checkpoint.savedCount(dir);
  if ((opts.earlier?.checkpoint ?? 'refuse') === 'refuse' && saved > 0) {
    throw new UserError(`${run.finalDir}: an earlier run of this id saved ${saved} of ${run.planned.length} variants (${dir}): \`${resumeCommandOf(opts, run.runId)}\` finishes it; --force starts over`);
  }
  const opened = Checkpoint.open(dir, run.inputs.digest, resume);
  held.checkpoint = opened.checkpoint;
  if (opened.discarded) notice(`note: the saved variants of an earlier run of ${run.finalDir} were discarded: ${opened.discarded}`);
  const workRoot = userWorkRoot();
  removeDeadWorkDirs(workRoot, notice);
  held.workDir = createWorkDir(workRoot);
  held.runtime = createRunRuntime(run, opts);
  const variants = run.planned.map((p) => ({ variant: p.variant.name, algorithm: p.variant.algorithm, params: p.variant.params }));
  held.backend = await createBackend(run.backend, { runtime: held.runtime, detectors: run.detectors, runId: run.runId, resume, variants });
  return held as OpenRun;
}

/**
 * The run's threads and stored values. The threads start now, overlapping the corpus read, when
 * the work will need them: several variants' joins, or values to compute that no store may
 * hold. A run of one variant with stored values starts them when its work turns out to need
 * them (a small join replayed needs none).
 */
function createRunRuntime(run: PreparedRun, opts: RunOptions): Runtime {
  const cache = opts.inputs?.corpusCache;
  const store = cache && opts.inputs?.storedValues !== 'compute' ? new ValueStore(storeBesideCorpusCache(cache)) : undefined;
  const preload = [...new Set(run.planned.flatMap((p) => (p.plan.local?.workerModules ?? []).map((m) => m.url)))];
  // Another backend runs no kernel here, but the ground truth's scorer (localScorer) computes
  // its features on a thread of this process, started when it is first needed.
  const local = run.backend.kind === 'local';
  const scorer = !local && run.planned.some((p) => p.variant.groundTruth && p.minScore !== REPORT_FLOOR && p.plan.local?.scorer !== undefined);
  return createRuntime({
    ...(local ? { workers: run.backend.workers } : scorer ? { workers: 1 } : {}),
    start: local && (run.planned.length > 1 || store === undefined) ? 'now' : 'on-demand',
    preload,
    ...(store ? { store } : {}),
  });
}

async function closeRun(held: HeldResources, o: { readonly completed: boolean; readonly run: PreparedRun; readonly opts: RunOptions }): Promise<void> {
  const { checkpoint, folder } = held;
  try {
    // An empty checkpoint goes first, so that the results folder it was in can go with the run.
    if (!o.completed && checkpoint?.savedVariants === 0 && checkpoint.savedResults === 0) checkpoint.remove();
    await held.backend?.close();
    // Values computed by the variants are written now, outside their measured time; an
    // interrupted run stops without writing them.
    await held.runtime?.close(o.opts.signal.aborted ? 'interrupted' : 'finished');
    if (held.workDir !== undefined) rmSync(held.workDir, { recursive: true, force: true });
    o.opts.progress.done();
    // A failed run's error says what was kept (noteKept), an interrupted one's too (interruptedLine).
  } finally {
    folder.close();
  }
}

function interruptedLine(checkpoint: Checkpoint | undefined, run: PreparedRun, opts: RunOptions): string {
  const note = keptLine(checkpoint, run);
  if (note === undefined) return 'interrupted before any variant finished: nothing was kept';
  return `interrupted: ${note}; to finish the run: ${resumeCommandOf(opts, run.runId)}`;
}

/**
 * What the checkpoint holds, in words, or undefined when it holds nothing: variants saved whole,
 * and the ground truth's run saved before its evaluation (run-variants.ts), which is all it can
 * hold when the truth failed after its join.
 */
function keptLine(checkpoint: Checkpoint | undefined, run: PreparedRun): string | undefined {
  const saved = checkpoint?.savedVariants ?? 0;
  if (saved > 0) return `${saved} of ${run.planned.length} variants are saved in ${checkpoint?.dir}`;
  if ((checkpoint?.savedResults ?? 0) > 0) return `the ground truth's run, before its evaluation, is saved in ${checkpoint?.dir}`;
  return undefined;
}

/**
 * A plan's scorer on the run's own threads and stored values, for a backend without kernels:
 * the ground truth's features computed here (or replayed), once, for its lookups.
 */
async function localScorer(plan: Plan, o: { readonly runtime: Runtime; readonly docs: DocumentSet; readonly workDir: string; readonly signal: AbortSignal }): Promise<PairScorer | undefined> {
  const make = plan.local?.scorer;
  if (!make) return undefined;
  const workDir = join(o.workDir, 'scorer');
  mkdirSync(workDir, { recursive: true });
  // The scorer holds the features in memory: no budget applies to it, as none applies to the evaluation.
  const scope = o.runtime.kernelContext({ docs: o.docs, memoryBudgetBytes: Number.MAX_SAFE_INTEGER, workDir, signal: o.signal, cache: new Map() });
  return make(scope.ctx);
}

function resumeCommandOf(opts: RunOptions, runId: string): string {
  return opts.resumeCommand ? opts.resumeCommand(runId) : `bench run ${opts.configFile} --run-id ${runId} --resume`;
}

/**
 * The run's error samples (issue 26): the ground truth as explanations see it, a cache they
 * share, the run's stored values, and what its kernels computed (the backend's, when it runs
 * kernels here: the document frequencies an SCT explanation needs are in the ground truth's
 * fingerprints, so no pass over the collection is made for them).
 */
function errorSampling(run: PreparedRun, docs: DocumentSet, open: Pick<OpenRun, 'runtime' | 'backend'>): ErrorSampling {
  const { runtime, backend } = open;
  const computed = backend.computedIfAny?.bind(backend);
  const gt = run.planned[0] as PlannedVariant;
  const shared = new Map<string, unknown>();
  const cached = <T>(key: string, compute: () => T): T => {
    // one look-up when the key is there (every explanation asks a few times)
    const held = shared.get(key);
    if (held !== undefined || shared.has(key)) return held as T;
    const made = compute();
    shared.set(key, made);
    return made;
  };
  const store = runtime.store;
  return {
    truth: { name: gt.variant.name, adapter: gt.adapter, params: gt.variant.params, decisions: gt.plan.output.decisions },
    size: errorSample(run),
    cached,
    // Looked up once a value: a look-up hashes the documents' digest with the key and checks the entry.
    ...(store ? { storedIfAny: <T>(codec: StoreCodec<T>): T | undefined => cached(`stored:${codec.key}`, () => store.peek(docs, codec)?.value) } : {}),
    ...(computed ? { computedIfAny: <T>(value: string | StoreCodec<T>): Promise<T | undefined> => computed(docs, value) } : {}),
  };
}

/** Errors of each kind a variant's sample keeps (`evaluate.errors.sample`; 0: no error files). */
function errorSample(run: PreparedRun): number {
  return run.exp.evaluate.errors?.sample ?? ERROR_SAMPLE;
}

const ERROR_SAMPLE = 20;

function noticeOf(opts: RunOptions): (line: string) => void {
  return opts.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
}
