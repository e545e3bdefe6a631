/**
 * The `spark-submit` side of the spark backend, as pure functions: where a run's files are staged
 * under `staging_dir`, the Spark settings of an application, the driver's plan, and the exact
 * `spark-submit` command line. `--dry-run` prints what these return and a run with
 * `launch: spark-submit` executes the very same argv, so what is printed is what runs.
 *
 * Layout under `<staging_dir>/<run-id>/` (the EMR backend's, harness/mapreduce/emr/layout.ts):
 *
 *   code/ndd-job.js, code/package.json        the bundled job script (CommonJS)
 *   code/driver.py                            python/spark/driver.py
 *   code/install-node.sh                      Node for the executors (node-install.ts)
 *   input/documents/part-00000                the documents as text records
 *   input/documents-meta/part-00000           their meta (only when a job reads it)
 *   variants/<vNN-name>/spec.json, plan.json  the variant's job spec and the driver's plan
 *   variants/<vNN-name>/result.json           what the driver reports (counters, or the failure)
 *   variants/<vNN-name>/<dataset>/            each job's output (part-NNNNN)
 */
import { DOCUMENTS, DOCUMENTS_META, type JobSpec } from '../../../contract/index.ts';
import { JOB_SCRIPT_NAME, safeName, SPEC_NAME } from '../hadoop/streaming-args.ts';
import { isLocalMaster, type SparkConfig } from './config.ts';
import { dirname, join } from 'node:path';
import { masterWithAttempts } from './runtime.ts';

export const DRIVER_NAME = 'driver.py';
export const PACKAGE_JSON = 'package.json';
export const PLAN_NAME = 'plan.json';
export const RESULT_NAME = 'result.json';
export const NODE_SCRIPT_NAME = 'install-node.sh';
/** The bundle is CommonJS; its folder must say so (a parent package.json may say "module"). */
export const COMMONJS_PACKAGE = '{"type":"commonjs"}\n';

/** `base/a/b` for a folder URI (`hdfs://nn/x`, `s3://b/p/`, `file:///tmp/x`), with single slashes. */
export function uriJoin(base: string, ...parts: readonly string[]): string {
  const tail = parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/');
  const head = base.replace(/\/+$/, '');
  return tail === '' ? head : `${head}/${tail}`;
}

export interface SparkPlaces {
  /** `<staging_dir>/<run-id>` */
  readonly run: string;
  readonly code: (name: string) => string;
  readonly variant: (slug: string) => string;
  /** A dataset's folder: the documents' under input/, a job output's under its variant. */
  readonly dataset: (slug: string, name: string) => string;
}

export function sparkPlaces(stagingDir: string, runId: string): SparkPlaces {
  const run = uriJoin(stagingDir, runId);
  return {
    run,
    code: (name) => uriJoin(run, 'code', name),
    variant: (slug) => uriJoin(run, 'variants', slug),
    dataset: (slug, name) =>
      name === DOCUMENTS || name === DOCUMENTS_META ? uriJoin(run, 'input', name) : uriJoin(run, 'variants', slug, safeName(name)),
  };
}

/**
 * The application's Spark settings. `local` adds those of one machine: no UI, no console
 * progress, and no PySpark daemon (it would put the Python workers and the task processes in a
 * process group of their own, beyond the abort's kill of ours).
 */
export function sparkSettings(c: SparkConfig, o: { readonly python?: string | undefined }): Record<string, string> {
  return {
    'spark.task.maxFailures': String(c.max_attempts),
    // Hadoop makes a map task of an empty input file too (its counters may say so); Spark 3 skips them unless told.
    'spark.hadoopRDD.ignoreEmptySplits': 'false',
    'spark.log.level': 'WARN',
    // The tasks are Python: one worker process a task slot, kept between the jobs of the application.
    'spark.python.worker.reuse': 'true',
    ...(isLocalMaster(c.master) ? { 'spark.ui.enabled': 'false', 'spark.ui.showConsoleProgress': 'false', 'spark.python.use.daemon': 'false' } : {}),
    ...(o.python !== undefined ? { 'spark.pyspark.python': o.python } : {}),
    ...Object.fromEntries(Object.entries(c.conf).map(([k, v]) => [k, String(v)])),
  };
}

/** One job as the driver reads it (driver.py's PLAN.json). */
export interface DriverJob {
  readonly name: string;
  readonly inputs: readonly string[];
  readonly output: string;
  readonly side: readonly string[];
  readonly combiner: boolean;
  readonly reducer: boolean;
}

export function driverJobs(jobs: readonly JobSpec[]): DriverJob[] {
  return jobs.map((j) => ({ name: j.name, inputs: j.inputs, output: j.output, side: j.side ?? [], combiner: j.combiner !== undefined, reducer: j.reducer !== undefined }));
}

/** The Node executable the tasks run: the config's, else this Node on one machine, `node` on a cluster. */
export function taskNode(c: SparkConfig): string {
  return c.node ?? (isLocalMaster(c.master) ? process.execPath : 'node');
}

/** The plan a spark-submit'ed driver reads (master, settings and files are on its command line). */
export function submitDriverPlan(c: SparkConfig, places: SparkPlaces, slug: string, jobs: readonly JobSpec[]): object {
  const names = new Set(jobs.flatMap((j) => [...j.inputs, j.output, ...(j.side ?? [])]));
  return {
    node: taskNode(c),
    datasets: Object.fromEntries([...names].map((n) => [n, places.dataset(slug, n)])),
    map_tasks: c.map_tasks,
    reduce_tasks: c.reduce_tasks,
    jobs: driverJobs(jobs),
    result: uriJoin(places.variant(slug), RESULT_NAME),
  };
}

export interface SubmitCommandInput {
  readonly config: SparkConfig;
  readonly places: SparkPlaces;
  readonly slug: string;
  readonly appName: string;
  /** the spark-submit executable */
  readonly submit: string;
  /** the Python of the driver and the workers, when it must be named (spark.pyspark.python) */
  readonly python?: string | undefined;
}

/** The exact `spark-submit` argv of one variant. */
export function submitArgv(i: SubmitCommandInput): string[] {
  const c = i.config;
  const conf = Object.entries(sparkSettings(c, { python: i.python })).flatMap(([k, v]) => ['--conf', `${k}=${v}`]);
  return [
    i.submit,
    '--master',
    masterWithAttempts(c.master, c.max_attempts),
    '--deploy-mode',
    c.deploy_mode,
    '--name',
    i.appName,
    // The job script, its package.json and the variant's spec land in each task's SparkFiles root, where the driver runs them.
    '--files',
    [i.places.code(JOB_SCRIPT_NAME), i.places.code(PACKAGE_JSON), uriJoin(i.places.variant(i.slug), SPEC_NAME)].join(','),
    ...conf,
    i.places.code(DRIVER_NAME),
    uriJoin(i.places.variant(i.slug), PLAN_NAME),
  ];
}

export function appName(runId: string, variant: string): string {
  return `ndd-bench ${runId} ${variant}`;
}

/** The spark-submit a run executes: the config's, else the project environment's on one machine, `spark-submit` on a cluster. */
export function submitProgram(c: SparkConfig, runtime: { readonly python: string } | undefined): string {
  if (c.submit !== undefined) return c.submit;
  if (isLocalMaster(c.master) && runtime !== undefined) return join(dirname(runtime.python), 'spark-submit');
  return 'spark-submit';
}

/** The Python spark.pyspark.python names: the config's, else on one machine the project environment's; on a cluster, the cluster's own. */
export function submitPython(c: SparkConfig, runtime: { readonly python: string } | undefined): string | undefined {
  return c.python ?? (isLocalMaster(c.master) ? runtime?.python : undefined);
}
