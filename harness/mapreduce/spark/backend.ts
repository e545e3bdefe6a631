/**
 * The `spark` backend: each variant is one Spark application (python/spark/driver.py; a JVM
 * starts in seconds, so never one a job) that runs every job of the plan with the very job
 * script the Hadoop steps run: map tasks piped through `node ndd-job.js --phase map` (and the
 * combiner over each map task's sorted output), Hadoop's HashPartitioner and key order in the
 * shuffle, reduce tasks piped through `--phase reduce`, outputs as part files read back here as
 * on the hadoop backend. Counters come from the tasks' `reporter:counter:` lines through an
 * accumulator (driver.py says how a retried task is counted once).
 *
 * The staged files (documents, job script, spec) and every dataset are file:// folders of the
 * run's work folder, as in Hadoop's local mode; Spark's own scratch (spark.local.dir, the JVM's
 * tmpdir) is there too. A run is complete or refused: a failed job fails the variant with the
 * failing task's last line and the end of the driver's log (a bad input file: exit 2). An abort
 * kills the driver's process group (the JVM, its Python workers and the task processes); the
 * run's folder is removed whatever the outcome.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DOCUMENTS, DOCUMENTS_META, readsDataset, type Counters } from '../../../contract/index.ts';
import { clip, DataError, InterruptedError } from '../../errors.ts';
import type { Backend, BackendContext, BackendRunResult, VariantJob } from '../backend.ts';
import { safeName } from '../emr/layout.ts';
import { runInGroup } from '../hadoop/process-group.ts';
import { JOB_SCRIPT_NAME, SPEC_NAME } from '../hadoop/streaming-args.ts';
import { outputDatasets, type PlanOutputs } from '../outputs.ts';
import { reapedChildrenCpuS } from '../streaming/cpu.ts';
import { readOutputs, writeDocumentMeta, writeDocuments } from '../streaming/datasets.ts';
import { EXIT_INPUT_FILE, type JobScriptSpec } from '../streaming/task-cli.ts';
import type { SparkConfig } from './config.ts';
import { DRIVER, masterWithAttempts, sparkRuntime, type SparkRuntime } from './runtime.ts';

export interface SparkBackendOptions {
  /** Path of the bundled job script, or how to get it. */
  readonly jobScript: string | (() => Promise<string>);
  /** USD per vCPU-hour that CPU-seconds are priced at (default 0). */
  readonly pricePerVcpuHour?: number;
  /** Which Python runs the driver (default: found when the first variant runs). */
  readonly runtime?: SparkRuntime;
}

/** One job as the driver reads it (driver.py's PLAN.json). */
interface DriverJob {
  readonly name: string;
  readonly inputs: readonly string[];
  readonly output: string;
  readonly side: readonly string[];
  readonly combiner: boolean;
  readonly reducer: boolean;
}

type DriverResult =
  | { readonly ok: true; readonly counters: Counters; readonly jobs: readonly { name: string; map_tasks: number; reduce_tasks: number; runtime_s: number }[] }
  | { readonly ok: false; readonly job?: string; readonly exit_code?: number; readonly task_line?: string; readonly error?: string };

/** The lines of the driver's log quoted in an error. */
const TAIL_LINES = 12;
/** The bundle is CommonJS; its folder must say so (a parent package.json may say "module"). */
const COMMONJS = '{"type":"commonjs"}\n';

export function createSparkBackend(config: SparkConfig, options: SparkBackendOptions): Backend {
  let runtime = options.runtime;
  return {
    kind: 'spark',
    async run(variant: VariantJob, ctx: BackendContext): Promise<BackendRunResult> {
      runtime ??= sparkRuntime(config, (line) => ctx.progress(line));
      const script = typeof options.jobScript === 'string' ? options.jobScript : await options.jobScript();
      ctx.signal.throwIfAborted();
      await mkdir(ctx.workDir, { recursive: true });
      const root = await mkdtemp(join(ctx.workDir, 'spark-'));
      const childCpu0 = reapedChildrenCpuS() ?? 0;
      const ownCpu0 = process.cpuUsage();
      const t0 = performance.now();
      try {
        const result = await runDriver(config, runtime, variant, script, root, ctx);
        const outputs = await readPlanOutputs(variant, root, ctx);
        const runtimeS = (performance.now() - t0) / 1000;
        const childCpuS = (reapedChildrenCpuS() ?? 0) - childCpu0;
        const own = process.cpuUsage(ownCpu0);
        const cpuS = childCpuS + (own.user + own.system) / 1e6;
        return {
          outputs,
          counters: result.counters,
          runtimeS,
          cpuS,
          costUsd: (cpuS / 3600) * (options.pricePerVcpuHour ?? 0),
          extra: { spark: runtime.description, map_tasks_hint: config.map_tasks, reduce_tasks: config.reduce_tasks, jvm_and_task_cpu_s: childCpuS, jobs: result.jobs },
        };
      } catch (e) {
        if (ctx.signal.aborted) throw new InterruptedError('spark run interrupted', { cause: ctx.signal.reason });
        throw e;
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },
    async close() {},
  };
}

function datasetDir(root: string, name: string): string {
  return join(root, 'data', name === DOCUMENTS || name === DOCUMENTS_META ? name : safeName(name));
}

async function runDriver(
  config: SparkConfig,
  runtime: SparkRuntime,
  variant: VariantJob,
  script: string,
  root: string,
  ctx: BackendContext,
): Promise<Extract<DriverResult, { ok: true }>> {
  const stage = join(root, 'stage');
  await mkdir(stage);
  await mkdir(join(root, 'data'));
  await copyFile(script, join(stage, JOB_SCRIPT_NAME));
  await writeFile(join(stage, 'package.json'), COMMONJS);
  const spec: JobScriptSpec = { algorithm: variant.algorithm, params: variant.params, minScore: variant.minScore, seed: variant.seed };
  await writeFile(join(stage, SPEC_NAME), JSON.stringify(spec));
  const jobs = variant.plan.jobs;
  if (readsDataset(jobs, DOCUMENTS)) {
    await mkdir(datasetDir(root, DOCUMENTS));
    ctx.progress('spark: writing documents');
    await writeDocuments(join(datasetDir(root, DOCUMENTS), 'part-00000'), ctx.docs, ctx.signal);
  }
  if (readsDataset(jobs, DOCUMENTS_META)) {
    await mkdir(datasetDir(root, DOCUMENTS_META));
    await writeDocumentMeta(join(datasetDir(root, DOCUMENTS_META), 'part-00000'), ctx.docs);
  }
  const names = new Set(jobs.flatMap((j) => [...j.inputs, j.output, ...(j.side ?? [])]));
  const datasets = Object.fromEntries([...names].map((n) => [n, pathToFileURL(datasetDir(root, n)).href]));
  const local = join(root, 'spark-local');
  await mkdir(local);
  const resultFile = join(root, 'result.json');
  const plan = {
    app_name: `ndd-bench ${variant.variant}`,
    master: masterWithAttempts(config.master, config.max_attempts),
    conf: {
      'spark.task.maxFailures': String(config.max_attempts),
      'spark.local.dir': local,
      'spark.driver.extraJavaOptions': `-Djava.io.tmpdir=${local}`,
      'spark.ui.enabled': 'false',
      'spark.ui.showConsoleProgress': 'false',
      // Hadoop makes a map task of an empty input file too (its counters may say so); Spark 3 skips them unless told.
      'spark.hadoopRDD.ignoreEmptySplits': 'false',
      'spark.log.level': 'WARN',
      // The tasks are Python: one worker process a task slot, kept between the jobs of the application.
      'spark.python.worker.reuse': 'true',
      // On one machine the Python workers are the JVM's own children (PySpark's daemon would put them
      // and the task processes in a process group of their own, beyond the abort's kill of ours).
      ...(config.master.startsWith('local') ? { 'spark.python.use.daemon': 'false' } : {}),
      ...Object.fromEntries(Object.entries(config.conf).map(([k, v]) => [k, String(v)])),
    },
    node: config.node ?? (config.master.startsWith('local') ? process.execPath : 'node'),
    files: [JOB_SCRIPT_NAME, SPEC_NAME, 'package.json'].map((f) => pathToFileURL(join(stage, f)).href),
    datasets,
    map_tasks: config.map_tasks,
    reduce_tasks: config.reduce_tasks,
    jobs: jobs.map(
      (j): DriverJob => ({ name: j.name, inputs: j.inputs, output: j.output, side: j.side ?? [], combiner: j.combiner !== undefined, reducer: j.reducer !== undefined }),
    ),
    result: resultFile,
  };
  const planFile = join(root, 'plan.json');
  await writeFile(planFile, JSON.stringify(plan, null, 1));
  ctx.progress(`spark: ${jobs.length} jobs on ${config.master}`);
  const logFile = join(root, 'driver.log');
  const env: NodeJS.ProcessEnv = { ...process.env, PYSPARK_PYTHON: runtime.python, PYSPARK_DRIVER_PYTHON: runtime.python, TMPDIR: local };
  // On one machine Spark needs no routable address (and warns when the host name is a loopback one).
  if (config.master.startsWith('local')) env['SPARK_LOCAL_IP'] ??= '127.0.0.1';
  const exit = await runInGroup({ file: runtime.python, args: [DRIVER, planFile], env }, { cwd: root, logFile, signal: ctx.signal });
  ctx.signal.throwIfAborted();
  const log = await readFile(logFile, 'utf8').catch(() => '');
  const result = (await readFile(resultFile, 'utf8').then(
    (t) => JSON.parse(t) as DriverResult,
    () => undefined,
  )) as DriverResult | undefined;
  if (exit.spawnError !== undefined) throw new Error(`spark: ${runtime.python} could not be started: ${exit.spawnError}`);
  if (exit.code === 0 && result?.ok) return result;
  if (result && !result.ok && result.exit_code === EXIT_INPUT_FILE && result.task_line) throw new DataError(`spark: ${clip(result.task_line, 300)}`);
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const failed = result && !result.ok && result.job !== undefined ? `job ${result.job} failed${result.task_line ? `; the task said: ${clip(result.task_line, 300)}` : ''}` : `the driver ${how}`;
  throw new Error(`spark: ${variant.variant}: ${failed}; end of the driver's log:\n${tail(log)}`);
}

/** The plan's outputs from their part files, decoded as on the other backends. */
async function readPlanOutputs(variant: VariantJob, root: string, ctx: BackendContext): Promise<PlanOutputs> {
  const files = new Map<string, string[]>();
  for (const name of outputDatasets(variant.plan.output)) {
    const dir = datasetDir(root, name);
    files.set(
      name,
      (await readdir(dir))
        .filter((n) => n.startsWith('part-'))
        .sort()
        .map((n) => join(dir, n)),
    );
  }
  return readOutputs(variant.variant, variant.plan.output, files, ctx.docs.texts.length);
}

function tail(log: string): string {
  return log
    .trimEnd()
    .split('\n')
    .slice(-TAIL_LINES)
    .map((l) => `  ${clip(l, 300)}`)
    .join('\n');
}
