/**
 * The `spark` backend: each variant is one Spark application (python/spark/driver.py; a JVM
 * starts in seconds, so never one a job) that runs every job of the plan with the very job
 * script the Hadoop steps run: map tasks piped through `node ndd-job.js --phase map` (and the
 * combiner over each map task's sorted output), Hadoop's HashPartitioner and key order in the
 * shuffle, reduce tasks piped through `--phase reduce`, outputs as part files read back here as
 * on the hadoop backend. Counters come from the tasks' `reporter:counter:` lines through an
 * accumulator (driver.py says how a retried task is counted once).
 *
 * Two ways to start the driver (config.launch). `python driver.py` (local[N] by default): the
 * staged files and every dataset are file:// folders of the run's work folder, as in Hadoop's
 * local mode. `spark-submit` (a cluster master by default): the files are staged under
 * `staging_dir` as submit.ts lays them out (file:// or S3 by this backend, stage.ts), and the
 * backend runs the very command `--dry-run` prints (submit.ts), then reads the outputs back from
 * there. Spark's own scratch (spark.local.dir, the JVM's tmpdir) is in the work folder either way. A run is complete or refused: a failed job fails the variant with the
 * failing task's last line and the end of the driver's log (a bad input file: exit 2). An abort
 * kills the driver's process group (the JVM, its Python workers and the task processes); the
 * run's folder is removed whatever the outcome.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DOCUMENTS, DOCUMENTS_META, readsDataset, type Counters } from '../../../contract/index.ts';
import { clip, DataError, InterruptedError, UserError } from '../../errors.ts';
import type { Backend, BackendContext, BackendRunResult, VariantJob } from '../backend.ts';
import { runInGroup } from '../hadoop/process-group.ts';
import { JOB_SCRIPT_NAME, safeName, SPEC_NAME, variantSlug } from '../hadoop/streaming-args.ts';
import { outputDatasets, type PlanOutputs } from '../outputs.ts';
import { reapedChildrenCpuS } from '../streaming/cpu.ts';
import { readOutputs, writeDocumentMeta, writeDocuments } from '../streaming/datasets.ts';
import { EXIT_INPUT_FILE, type JobScriptSpec } from '../streaming/task-cli.ts';
import { deployProblem, isLocalMaster, launchOf, stagingScheme, type SparkConfig } from './config.ts';
import { DRIVER, masterWithAttempts, sparkRuntime, type SparkRuntime } from './runtime.ts';
import { nodeInstallScript } from './node-install.ts';
import { fileStager, selfStaged, type Stager } from './stage.ts';
import {
  appName, COMMONJS_PACKAGE, DRIVER_NAME, driverJobs, NODE_SCRIPT_NAME, PACKAGE_JSON, PLAN_NAME, RESULT_NAME, sparkPlaces, sparkSettings, submitArgv, submitDriverPlan, submitProgram, submitPython, taskNode, uriJoin, type SparkPlaces,
} from './submit.ts';

export interface SparkBackendOptions {
  /** Path of the bundled job script, or how to get it. */
  readonly jobScript: string | (() => Promise<string>);
  /** USD per vCPU-hour that CPU-seconds are priced at (default 0). */
  readonly pricePerVcpuHour?: number;
  /** Which Python runs the driver (default: found when the first variant runs). */
  readonly runtime?: SparkRuntime;
  /** The run's id: its folder under staging_dir (default: a time stamp). */
  readonly runId?: string;
  /**
   * The stager of an s3:// or s3a:// staging_dir: the EMR backend's S3 upload (emr/spark-staging.ts),
   * given by backends.ts so that this folder does not import the EMR one (which imports it).
   */
  readonly s3Stager?: () => Promise<Stager>;
  /** Sees each spark-submit argv before it runs (the tests compare it with the dry run's). */
  readonly onSubmit?: (argv: readonly string[]) => void;
}

type DriverResult =
  | { readonly ok: true; readonly counters: Counters; readonly jobs: readonly { name: string; map_tasks: number; reduce_tasks: number; runtime_s: number }[] }
  | { readonly ok: false; readonly job?: string; readonly exit_code?: number; readonly task_line?: string; readonly error?: string };

/** The lines of the driver's log quoted in an error. */
const TAIL_LINES = 12;
export function createSparkBackend(config: SparkConfig, options: SparkBackendOptions): Backend {
  let runtime = options.runtime;
  const launch = launchOf(config);
  const deploy = deployProblem(config);
  if (deploy !== undefined) throw new UserError(deploy);
  if (launch === 'spark-submit' && config.staging_dir === undefined && !isLocalMaster(config.master)) {
    throw new UserError(`backend.staging_dir: a cluster master (${config.master}) needs a staging_dir its nodes read (hdfs://, s3://, gs://…); \`bench run CONFIG --dry-run\` shows what is staged there`);
  }
  if (config.staging_dir !== undefined && launch === 'spark-submit' && !selfStaged(config.staging_dir)) {
    const scheme = stagingScheme(config.staging_dir);
    throw new UserError(
      `backend.staging_dir: a run stages to file:// and s3:// itself, not to ${scheme}://; \`bench run CONFIG --dry-run\` prints the files and the ${scheme === 'hdfs' ? 'hdfs dfs' : 'gcloud storage'} commands that stage them, and the spark-submit command`,
    );
  }
  const runId = options.runId ?? new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  let count = 0;
  let staged: Promise<void> | undefined;
  let stager: Stager | undefined;
  const stagerOf = async (): Promise<Stager> => {
    if (stager) return stager;
    const scheme = config.staging_dir === undefined ? 'file' : stagingScheme(config.staging_dir);
    if (scheme === 's3' || scheme === 's3a') {
      if (!options.s3Stager) throw new UserError(`backend.staging_dir: ${config.staging_dir}: no S3 client here`);
      return (stager = await options.s3Stager());
    }
    return (stager = fileStager());
  };
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
      count += 1;
      try {
        let result: Extract<DriverResult, { ok: true }>;
        let outputs: PlanOutputs;
        let submitted: readonly string[] | undefined;
        if (launch === 'python') {
          result = await runDriver(config, runtime, variant, script, root, ctx);
          outputs = await readPlanOutputs(variant, (name) => readLocalParts(datasetDir(root, name)), ctx);
        } else {
          // Without a staging_dir (local[N] only) the files are staged in this variant's own folder.
          const places = sparkPlaces(config.staging_dir ?? pathToFileURL(join(root, 'staging')).href, runId);
          const slug = variantSlug(variant.position ?? count, variant.variant, variant.part);
          const st = await stagerOf();
          if (config.staging_dir === undefined || staged === undefined) staged = stageRun(st, places, script, ctx);
          await staged;
          const sub = await runSubmitted({ config, runtime, variant, places, slug, stager: st, root, ctx, runId, ...(options.onSubmit ? { onSubmit: options.onSubmit } : {}) });
          result = sub.result;
          submitted = sub.argv;
          outputs = await readPlanOutputs(variant, (name) => st.parts(places.dataset(slug, name), join(root, 'fetched', safeName(name)), ctx.signal), ctx);
        }
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
          extra: {
            spark: runtime.description,
            map_tasks_hint: config.map_tasks,
            reduce_tasks: config.reduce_tasks,
            jvm_and_task_cpu_s: childCpuS,
            jobs: result.jobs,
            ...(submitted ? { spark_submit: submitted } : {}),
          },
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
  await writeFile(join(stage, PACKAGE_JSON), COMMONJS_PACKAGE);
  await writeFile(join(stage, SPEC_NAME), specText(variant));
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
  const resultFile = join(root, RESULT_NAME);
  const plan = {
    app_name: `ndd-bench ${variant.variant}`,
    master: masterWithAttempts(config.master, config.max_attempts),
    // Spark's scratch in the run's folder, unless the config's `conf` says otherwise.
    conf: {
      'spark.local.dir': local,
      'spark.driver.extraJavaOptions': `-Djava.io.tmpdir=${local}`,
      ...sparkSettings(config, {}),
    },
    node: taskNode(config),
    files: [JOB_SCRIPT_NAME, SPEC_NAME, PACKAGE_JSON].map((f) => pathToFileURL(join(stage, f)).href),
    datasets,
    map_tasks: config.map_tasks,
    reduce_tasks: config.reduce_tasks,
    jobs: driverJobs(jobs),
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
  const result = (await readFile(resultFile, 'utf8').then(
    (t) => JSON.parse(t) as DriverResult,
    () => undefined,
  )) as DriverResult | undefined;
  return driverOutcome({ exit, result, logFile, program: runtime.python, variant });
}

function specText(variant: VariantJob): string {
  const spec: JobScriptSpec = { algorithm: variant.algorithm, params: variant.params, minScore: variant.minScore, seed: variant.seed };
  return JSON.stringify(spec);
}

/** The driver's result, or the one-line error of its failure. */
async function driverOutcome(o: {
  readonly exit: Awaited<ReturnType<typeof runInGroup>>;
  readonly result: DriverResult | undefined;
  readonly logFile: string;
  readonly program: string;
  readonly variant: VariantJob;
}): Promise<Extract<DriverResult, { ok: true }>> {
  const { exit, result, variant } = o;
  const log = await readFile(o.logFile, 'utf8').catch(() => '');
  if (exit.spawnError !== undefined) throw new Error(`spark: ${o.program} could not be started: ${exit.spawnError}`);
  if (exit.code === 0 && result?.ok) return result;
  if (result && !result.ok && result.exit_code === EXIT_INPUT_FILE && result.task_line) throw new DataError(`spark: ${clip(result.task_line, 300)}`);
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const failed = result && !result.ok && result.job !== undefined ? `job ${result.job} failed${result.task_line ? `; the task said: ${clip(result.task_line, 300)}` : ''}` : `the driver ${how}`;
  throw new Error(`spark: ${variant.variant}: ${failed}; end of the driver's log:\n${tail(log)}`);
}

/**
 * Stages what every variant of a run reads: the job script and its package.json, the driver, and
 * the documents (and their meta when a job reads it), as submit.ts lays them out.
 */
async function stageRun(st: Stager, places: SparkPlaces, script: string, ctx: BackendContext): Promise<void> {
  ctx.progress(`spark: staging to ${places.run}`);
  await st.put(places.code(JOB_SCRIPT_NAME), { from: script }, ctx.signal);
  await st.put(places.code(PACKAGE_JSON), { body: COMMONJS_PACKAGE }, ctx.signal);
  await st.put(places.code(DRIVER_NAME), { from: DRIVER }, ctx.signal);
  await st.put(places.code(NODE_SCRIPT_NAME), { body: nodeInstallScript() }, ctx.signal);
  // The documents and their meta are written once a run, whichever variant comes first (all read the same set).
  for (const name of [DOCUMENTS, DOCUMENTS_META]) {
    const uri = uriJoin(places.dataset('', name), 'part-00000');
    const folder = st.localFolder(uri);
    const file = folder ?? join(ctx.workDir, `spark-${name}-${process.pid}`);
    await mkdir(dirname(file), { recursive: true });
    try {
      if (name === DOCUMENTS) await writeDocuments(file, ctx.docs, ctx.signal);
      else await writeDocumentMeta(file, ctx.docs);
      if (folder === undefined) await st.put(uri, { from: file }, ctx.signal);
    } finally {
      if (folder === undefined) await rm(file, { force: true });
    }
  }
}

interface SubmitInput {
  readonly config: SparkConfig;
  readonly runtime: SparkRuntime;
  readonly variant: VariantJob;
  readonly places: SparkPlaces;
  readonly slug: string;
  readonly stager: Stager;
  readonly root: string;
  readonly ctx: BackendContext;
  readonly runId: string;
  readonly onSubmit?: (argv: readonly string[]) => void;
}

/** Stages the variant's spec and plan, runs spark-submit, and reads the driver's result back. */
async function runSubmitted(i: SubmitInput): Promise<{ result: Extract<DriverResult, { ok: true }>; argv: string[] }> {
  const { config, places, slug, stager, root, ctx, variant } = i;
  await stager.clear(places.variant(slug), ctx.signal);
  await stager.put(uriJoin(places.variant(slug), SPEC_NAME), { body: specText(variant) }, ctx.signal);
  await stager.put(uriJoin(places.variant(slug), PLAN_NAME), { body: JSON.stringify(submitDriverPlan(config, places, slug, variant.plan.jobs), null, 1) }, ctx.signal);
  const argv = submitArgv({ config, places, slug, appName: appName(i.runId, variant.variant), submit: submitProgram(config, i.runtime), python: submitPython(config, i.runtime) });
  i.onSubmit?.(argv);
  const local = join(root, 'spark-local');
  await mkdir(local, { recursive: true });
  // Spark's scratch in the run's folder, by environment, so that the command line is the dry run's.
  const env: NodeJS.ProcessEnv = { ...process.env, SPARK_LOCAL_DIRS: local, SPARK_SUBMIT_OPTS: `-Djava.io.tmpdir=${local}`, TMPDIR: local };
  if (isLocalMaster(config.master)) env['SPARK_LOCAL_IP'] ??= '127.0.0.1';
  // pyspark's own spark-submit finds Spark's home with the `python3` on the PATH: the environment's, as when it is activated.
  const python = submitPython(config, i.runtime);
  if (python !== undefined) env['PATH'] = `${dirname(python)}${delimiter}${process.env['PATH'] ?? ''}`;
  ctx.progress(`spark: spark-submit ${variant.plan.jobs.length} jobs to ${config.master}`);
  const logFile = join(root, 'driver.log');
  const [file, ...args] = argv as [string, ...string[]];
  const exit = await runInGroup({ file, args, env }, { cwd: root, logFile, signal: ctx.signal });
  ctx.signal.throwIfAborted();
  const text = await stager.read(uriJoin(places.variant(slug), RESULT_NAME), ctx.signal);
  const result = text === undefined ? undefined : (JSON.parse(text) as DriverResult);
  return { result: await driverOutcome({ exit, result, logFile, program: file, variant }), argv };
}

async function readLocalParts(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((n) => n.startsWith('part-'))
    .sort()
    .map((n) => join(dir, n));
}

/** The plan's outputs from their part files, decoded as on the other backends. */
async function readPlanOutputs(variant: VariantJob, partsOf: (name: string) => Promise<string[]>, ctx: BackendContext): Promise<PlanOutputs> {
  const files = new Map<string, string[]>();
  for (const name of outputDatasets(variant.plan.output)) files.set(name, await partsOf(name));
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
