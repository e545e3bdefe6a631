/**
 * The `streaming` backend: every job of a plan runs the way Hadoop Streaming runs it, with the
 * very job script EMR runs (`bundle.ts`), as real processes:
 *
 *   map task i:    <split i> → node ndd-job.js --phase map [| LC_ALL=C sort -t$'\t' -k1,1 -s | node ndd-job.js --phase combine]
 *                  → HashPartitioner over R partition files (`shuffle.ts`)
 *   reduce task r: LC_ALL=C sort -t$'\t' -k1,1 -s -S … -T … <partition r of every map task> | node ndd-job.js --phase reduce
 *                  → part-0000r
 *
 * A job without a reducer is map-only (its map outputs are the job output, no combiner, as in
 * Hadoop). Counters are summed from every process's `reporter:counter:` lines. Up to
 * `parallelTasks` tasks run at a time.
 *
 * Task attempts are made as Hadoop makes them: a task whose process fails is run again from
 * scratch (its output files rewritten, the counters of the failed attempt never added) up to
 * `max_attempts` times; the last failure fails the job, kills every child and names the job,
 * task, attempt and the tail of the task's stderr. An abort kills every child at once and is
 * never retried.
 */
import { mkdir, mkdtemp, open, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { addCounters, type Counters } from '../../../contract/index.ts';
import { clip, DataError, InterruptedError, quote, UserError } from '../../errors.ts';
import type { Backend, BackendContext, BackendRunResult, VariantJob } from '../backend.ts';
import { DOCUMENTS, DOCUMENTS_META, readsDataset, type JobSpec } from '../../../contract/index.ts';
import { bundleJobScript } from './bundle.ts';
import type { StreamingConfig } from './config.ts';
import { reapedChildrenCpuS } from './cpu.ts';
import { readOutputs, writeDocumentMeta, writeDocuments } from './datasets.ts';
import { ChildSet, describeExit, describeFailure, rootFailure, startPipeline, type Command, type ProcessOutcome } from './processes.ts';
import { addCounterLines } from './reporter.ts';
import { partitionLines } from './shuffle.ts';
import { alignSplits, planSplits, type Split } from './splits.ts';
import { EXIT_INPUT_FILE, type JobScriptSpec } from './task-cli.ts';

export interface StreamingBackendOptions {
  /** USD per vCPU-hour that CPU-seconds are priced at (default 0: no price given). */
  readonly pricePerVcpuHour?: number;
  /** Path of the job script, or how to get it (default: `bundleJobScript()`). */
  readonly jobScript?: string | (() => Promise<string>);
  /** Tasks run at once (default min(2, cores)). */
  readonly parallelTasks?: number;
  /** `sort -S` buffer per sort process (default `128M`). */
  readonly sortBuffer?: string;
}

interface JobReport {
  readonly name: string;
  readonly map_tasks: number;
  readonly reduce_tasks: number;
  readonly map_output_records: number | null;
  /** the map output of an earlier variant with the same `mapKey` was reduced again */
  readonly map_output_reused?: boolean;
  readonly runtime_s: number;
}

/** A task attempt that failed and was made again (or was the last). */
interface FailedAttempt {
  readonly job: string;
  readonly phase: 'map' | 'reduce';
  readonly task: number;
  readonly attempt: number;
  readonly error: string;
}

/** At most this many failed attempts are listed in run.json (all are counted). */
const LISTED_FAILED_ATTEMPTS = 50;

/** A job's map output kept for later variants of the run (`JobSpec.mapKey`). */
interface KeptMapOutput {
  /** partition files, by map task then partition */
  readonly partitions: readonly (readonly string[])[];
  readonly records: number;
  readonly counters: Counters;
}

export function createStreamingBackend(config: StreamingConfig, options: StreamingBackendOptions = {}): Backend {
  const keptMaps = new Map<string, KeptMapOutput>();
  const parallel = options.parallelTasks ?? Math.max(1, Math.min(2, availableParallelism()));
  const getScript = (): Promise<string> => {
    const s = options.jobScript;
    return typeof s === 'string' ? Promise.resolve(s) : s ? s() : bundleJobScript();
  };
  return {
    kind: 'streaming',
    async run(variant: VariantJob, ctx: BackendContext): Promise<BackendRunResult> {
      const script = await getScript();
      ctx.signal.throwIfAborted();
      const children = new ChildSet();
      const onAbort = () => children.killAll();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const childCpu0 = reapedChildrenCpuS() ?? 0;
      const ownCpu0 = process.cpuUsage();
      const t0 = performance.now();
      try {
        const run = new StreamingRun(config, script, parallel, options.sortBuffer ?? '128M', children, ctx, keptMaps);
        const { datasets, counters, jobs, failedAttempts } = await run.execute(variant);
        const outputs = await readOutputs(variant.variant, variant.plan.output, datasets, ctx.docs.texts.length);
        const runtimeS = (performance.now() - t0) / 1000;
        const childCpuS = (reapedChildrenCpuS() ?? 0) - childCpu0;
        const own = process.cpuUsage(ownCpu0);
        const frameworkCpuS = (own.user + own.system) / 1e6;
        const cpuS = childCpuS + frameworkCpuS;
        return {
          outputs,
          counters,
          runtimeS,
          cpuS,
          costUsd: (cpuS / 3600) * (options.pricePerVcpuHour ?? 0),
          extra: {
            job_script: script,
            map_tasks_hint: config.map_tasks,
            reduce_tasks: config.reduce_tasks,
            task_cpu_s: childCpuS,
            framework_cpu_s: frameworkCpuS,
            max_attempts: config.max_attempts,
            failed_attempts: failedAttempts.length,
            ...(failedAttempts.length > 0 ? { failed_attempt_list: failedAttempts.slice(0, LISTED_FAILED_ATTEMPTS) } : {}),
            jobs,
          },
        };
      } catch (e) {
        children.killAll();
        if (ctx.signal.aborted) throw new InterruptedError('streaming run interrupted', { cause: ctx.signal.reason });
        throw e;
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
    async close() {},
  };
}

/** One variant's run: the datasets on disk and the tasks of each job. */
class StreamingRun {
  private root = '';
  private specFile = '';
  /** GNU sort's --random-source file when the values are shuffled (`shuffle_seed`) */
  private randomSource: string | undefined;
  private readonly datasets = new Map<string, string[]>();
  private readonly counters: Counters = {};
  private readonly failedAttempts: FailedAttempt[] = [];

  constructor(
    private readonly config: StreamingConfig,
    private readonly script: string,
    private readonly parallel: number,
    private readonly sortBuffer: string,
    private readonly children: ChildSet,
    private readonly ctx: BackendContext,
    private readonly keptMaps: Map<string, KeptMapOutput>,
  ) {}

  async execute(
    variant: VariantJob,
  ): Promise<{ datasets: ReadonlyMap<string, readonly string[]>; counters: Counters; jobs: JobReport[]; failedAttempts: FailedAttempt[] }> {
    await mkdir(this.ctx.workDir, { recursive: true });
    this.root = await mkdtemp(join(this.ctx.workDir, 'streaming-'));
    this.specFile = join(this.root, 'spec.json');
    const spec: JobScriptSpec = { algorithm: variant.algorithm, params: variant.params, minScore: variant.minScore, seed: variant.seed };
    await writeFile(this.specFile, JSON.stringify(spec));
    await mkdir(join(this.root, 'tmp'));
    if (this.config.shuffle_seed !== undefined) {
      this.randomSource = join(this.root, 'random-source');
      await writeFile(this.randomSource, seededBytes(this.config.shuffle_seed, 1 << 16));
    }
    const needsDocs = variant.plan.jobs.some((j) => j.inputs.includes(DOCUMENTS) || j.side?.includes(DOCUMENTS));
    if (needsDocs) {
      const dir = join(this.root, DOCUMENTS);
      await mkdir(dir);
      const file = join(dir, 'part-00000');
      this.ctx.progress('streaming: writing documents');
      await writeDocuments(file, this.ctx.docs, this.ctx.signal);
      this.datasets.set(DOCUMENTS, [file]);
    }
    if (readsDataset(variant.plan.jobs, DOCUMENTS_META)) {
      const dir = join(this.root, DOCUMENTS_META);
      await mkdir(dir);
      const file = join(dir, 'part-00000');
      await writeDocumentMeta(file, this.ctx.docs);
      this.datasets.set(DOCUMENTS_META, [file]);
    }
    const jobs: JobReport[] = [];
    for (const [j, job] of variant.plan.jobs.entries()) {
      jobs.push(await this.runJob(job, join(this.root, `job-${j}-${job.name}`)));
    }
    return { datasets: this.datasets, counters: this.counters, jobs, failedAttempts: this.failedAttempts };
  }

  private dataset(job: JobSpec, name: string): string[] {
    const files = this.datasets.get(name);
    if (!files) throw new Error(`job ${job.name} reads dataset "${name}", which no earlier job wrote`);
    return files;
  }

  private node(job: JobSpec, phase: 'map' | 'combine' | 'reduce'): Command {
    const side = (job.side ?? []).flatMap((name) => this.dataset(job, name).flatMap((f) => ['--side', `${name}=${f}`]));
    const env = { ...process.env };
    // The cluster runs the bundle with a plain node: no loaders or flags inherited from a test runner.
    delete env.NODE_OPTIONS;
    return {
      label: phase === 'map' ? 'mapper' : phase === 'combine' ? 'combiner' : 'reducer',
      file: process.execPath,
      args: [this.script, '--spec', this.specFile, '--job', job.name, '--phase', phase, ...side],
      env,
    };
  }

  private sort(files: readonly string[]): Command {
    // With a shuffle seed, the values of a key are ordered by a keyed hash of the value (GNU
    // sort's -R, its key from the seeded random source): a permutation each seed changes.
    const order = this.randomSource === undefined ? [] : ['-k2R', `--random-source=${this.randomSource}`];
    return {
      label: 'sort',
      file: this.config.sort,
      args: ['-t', '\t', '-k1,1', ...order, '-s', '-S', this.sortBuffer, '-T', join(this.root, 'tmp'), ...files],
      env: { ...process.env, LC_ALL: 'C' },
    };
  }

  private async runJob(job: JobSpec, dir: string): Promise<JobReport> {
    const t0 = performance.now();
    const inputs = job.inputs.flatMap((name) => this.dataset(job, name));
    const sized = await Promise.all(inputs.map(async (path) => ({ path, size: (await stat(path)).size })));
    const maxSplit = this.config.split_mb ? Math.floor(this.config.split_mb * 1024 * 1024) : Infinity;
    const splits = await alignSplits(planSplits(sized, this.config.map_tasks, maxSplit));
    const out = join(dir, 'out');
    await mkdir(out, { recursive: true });
    const part = (prefix: string, i: number) => join(out, `part-${prefix}${String(i).padStart(5, '0')}`);

    if (!job.reducer) {
      const files = splits.map((_, i) => part('m-', i));
      await this.runTasks(job, 'map', splits.length, (i) => this.mapTask(job, splits[i] as Split, { kind: 'file', file: files[i] as string }));
      this.datasets.set(job.output, this.config.shuffle_seed === undefined ? files : seededOrder(files, this.config.shuffle_seed));
      return { name: job.name, map_tasks: splits.length, reduce_tasks: 0, map_output_records: null, runtime_s: (performance.now() - t0) / 1000 };
    }

    const r = this.config.reduce_tasks;
    // The documents are the same for every variant of a run, so a map over them with the same
    // mapKey gives the same partitions: keep them (they live in the run's work folder).
    const keepKey =
      job.mapKey !== undefined && job.inputs.length === 1 && job.inputs[0] === DOCUMENTS && !job.combiner
        ? JSON.stringify([job.name, job.mapKey, r, this.config.map_tasks, this.config.split_mb ?? null])
        : undefined;
    let kept = keepKey === undefined ? undefined : this.keptMaps.get(keepKey);
    const reused = kept !== undefined;
    if (kept) {
      addCounters(this.counters, kept.counters);
    } else {
      const mapDirs = splits.map((_, i) => join(dir, `map-${i}`));
      await Promise.all(mapDirs.map((d) => mkdir(d)));
      const partitions = splits.map((_, m) => Array.from({ length: r }, (_, p) => join(mapDirs[m] as string, `part-${String(p).padStart(5, '0')}`)));
      const before = structuredClone(this.counters);
      let records = 0;
      await this.runTasks(job, 'map', splits.length, async (i) => {
        // (awaited first: `records += await …` would read `records` before the other task adds to it)
        const n = await this.mapTask(job, splits[i] as Split, { kind: 'partitions', files: partitions[i] as string[] });
        records += n;
      });
      kept = { partitions, records, counters: subtractCounters(this.counters, before) };
      if (keepKey !== undefined) this.keptMaps.set(keepKey, kept);
    }
    const mapOutputs = kept;
    const mapOutputRecords = kept.records;
    const files = Array.from({ length: r }, (_, p) => part('', p));
    await this.runTasks(job, 'reduce', r, (p) =>
      this.reduceTask(job, mapOutputs.partitions.map((m) => m[p] as string), files[p] as string),
    );
    this.datasets.set(job.output, files);
    return {
      name: job.name,
      map_tasks: mapOutputs.partitions.length,
      reduce_tasks: r,
      map_output_records: mapOutputRecords,
      map_output_reused: reused,
      runtime_s: (performance.now() - t0) / 1000,
    };
  }

  /** Runs one map task; returns the number of map output records when it partitions them. */
  private async mapTask(
    job: JobSpec,
    split: Split,
    sink: { kind: 'file'; file: string } | { kind: 'partitions'; files: string[] },
  ): Promise<number> {
    const commands: Command[] = [this.node(job, 'map')];
    if (sink.kind === 'partitions' && job.combiner) commands.push(this.sort([]), this.node(job, 'combine'));
    const input = createReadStream(split.path, { start: split.start, end: split.end - 1, highWaterMark: 1 << 20 });
    if (sink.kind === 'file') {
      const fh = await open(sink.file, 'w');
      let outcomes: ProcessOutcome[];
      try {
        outcomes = await startPipeline(commands, { kind: 'stream', stream: input }, { kind: 'fd', fd: fh.fd }, this.children).done;
      } finally {
        await fh.close();
      }
      this.check(outcomes);
      return 0;
    }
    const pipeline = startPipeline(commands, { kind: 'stream', stream: input }, { kind: 'pipe' }, this.children);
    const records = partitionLines(pipeline.stdout as NonNullable<typeof pipeline.stdout>, sink.files);
    // If partitioning fails (disk full), the attempt's processes must not outlive it.
    records.catch(() => pipeline.kill());
    const outcomes = await pipeline.done;
    // The partition files must be closed before another attempt rewrites them.
    const written = await records.then(
      (n) => ({ ok: true as const, n }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    this.check(outcomes);
    if (!written.ok) throw written.error;
    return written.n;
  }

  private async reduceTask(job: JobSpec, inputs: readonly string[], outFile: string): Promise<void> {
    const fh = await open(outFile, 'w');
    let outcomes: ProcessOutcome[];
    try {
      outcomes = await startPipeline([this.sort(inputs), this.node(job, 'reduce')], { kind: 'none' }, { kind: 'fd', fd: fh.fd }, this.children).done;
    } finally {
      await fh.close();
    }
    this.check(outcomes);
  }

  /** Adds the counters of a finished task, or throws the failure that explains it. */
  private check(outcomes: readonly ProcessOutcome[]): void {
    const failure = rootFailure(outcomes);
    if (failure) throw new TaskFailure(failure);
    for (const o of outcomes) addCounterLines(this.counters, o.counters);
  }

  /**
   * Runs `count` tasks, at most `parallel` at a time. A task whose process fails is attempted
   * again from scratch, up to `max_attempts` times; its last failure kills the other tasks and
   * is thrown. An abort stops everything and is not retried.
   */
  private async runTasks(job: JobSpec, phase: 'map' | 'reduce', count: number, task: (i: number) => Promise<unknown>): Promise<void> {
    const maxAttempts = this.config.max_attempts;
    let next = 0;
    let done = 0;
    let failure: { error: unknown; task: number; attempt: number } | undefined;
    const stopped = () => failure !== undefined || this.ctx.signal.aborted;
    this.ctx.progress(`${job.name} ${phase}`, 0, count);
    const worker = async () => {
      while (next < count && !stopped()) {
        const i = next++;
        for (let attempt = 1; !stopped(); attempt++) {
          try {
            await task(i);
            this.ctx.progress(`${job.name} ${phase}`, ++done, count);
            break;
          } catch (error) {
            if (stopped()) break;
            // Only a task process that failed is attempted again; anything else is not the task's
            // doing, nor is a command that cannot be started (it would fail every attempt alike).
            if (error instanceof TaskFailure && !error.outcome.spawnError && attempt < maxAttempts) {
              this.failedAttempts.push({ job: job.name, phase, task: i, attempt, error: describeFailure(error.outcome) });
              this.ctx.progress(`${job.name} ${phase}: task ${i} attempt ${attempt} failed, attempt ${attempt + 1} of ${maxAttempts}`, done, count);
              continue;
            }
            if (error instanceof TaskFailure) {
              this.failedAttempts.push({ job: job.name, phase, task: i, attempt, error: describeFailure(error.outcome) });
            }
            failure = { error, task: i, attempt };
            this.children.killAll();
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.parallel, count) }, worker));
    this.ctx.signal.throwIfAborted();
    if (failure) {
      const { error, task: i, attempt } = failure;
      if (error instanceof TaskFailure && error.outcome.spawnError && error.outcome.label === 'sort') {
        // The config names the sort command: a user's mistake, not a bug.
        throw new UserError(`streaming: backend.sort ${quote(this.config.sort)} cannot be started (${error.outcome.spawnError}): give the path of GNU sort`, { cause: error });
      }
      if (error instanceof TaskFailure && error.outcome.code === EXIT_INPUT_FILE && error.outcome.lastLines.length > 0) {
        // A file the user named is bad (the task's last line says which, where and why): exit 2, not a bug.
        throw new DataError(`streaming: job ${job.name}: ${phase} task ${i}: ${clip(error.outcome.lastLines.at(-1) as string, 300)}`, { cause: error });
      }
      if (error instanceof TaskFailure) {
        throw new Error(
          `streaming: job ${job.name}: ${phase} task ${i}: attempt ${attempt} of ${maxAttempts}: ${describeExit(error.outcome)}${stderrTail(error.outcome)}`,
          { cause: error },
        );
      }
      throw new Error(`streaming: job ${job.name}: ${phase} task ${i}: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** The last stderr lines of a failed task process, for the error message (control characters escaped). */
function stderrTail(o: ProcessOutcome): string {
  if (o.spawnError || o.lastLines.length === 0) return '';
  const lines = o.lastLines.map((l) => clip(l, 200));
  return lines.length === 1 ? `: ${lines[0]}` : `; last lines of its stderr:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** `n` bytes that are a function of the seed alone (SHA-256 in counter mode). */
function seededBytes(seed: number, n: number): Buffer {
  const blocks: Buffer[] = [];
  for (let i = 0; i * 32 < n; i++) blocks.push(createHash('sha256').update(`ndd-bench shuffle ${seed} ${i}`).digest());
  return Buffer.concat(blocks).subarray(0, n);
}

/** The files in an order the seed chooses (by a keyed hash of each name). */
function seededOrder(files: readonly string[], seed: number): string[] {
  const key = (f: string) => createHash('sha256').update(`${seed}\0${f}`).digest('hex');
  return [...files].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Counters added since `before`. */
function subtractCounters(now: Counters, before: Counters): Counters {
  const out: Counters = {};
  for (const [g, names] of Object.entries(now)) {
    for (const [n, v] of Object.entries(names)) {
      const d = v - (before[g]?.[n] ?? 0);
      if (d !== 0) (out[g] ??= {})[n] = d;
    }
  }
  return out;
}

class TaskFailure extends Error {
  constructor(readonly outcome: ProcessOutcome) {
    super(describeFailure(outcome));
  }
}
