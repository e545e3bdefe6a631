/**
 * `backend: { kind: spark, ... }`: every job of a plan on Apache Spark, through the project's
 * PySpark driver (python/spark/driver.py) and the pinned pyspark (python/requirements-spark.txt).
 */
import { z } from 'zod';

export const sparkBackendSchema = z
  .object({
    kind: z
      .literal('spark')
      .describe("Apache Spark: one application a variant (python/spark/driver.py, pinned pyspark 3.5), the job script piped in its map and reduce tasks, Hadoop's partitioner and key order in its shuffle"),
    master: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'no white space')
      .default('local[2]')
      .describe("Spark's master: local[N] (N task threads on this machine) or a cluster's URL (spark://host:7077, yarn, k8s://…)"),
    map_tasks: z
      .number()
      .int()
      .min(1)
      .max(100000)
      .default(2)
      .describe('map tasks wished for (the minimum number of input partitions of each job)'),
    reduce_tasks: z.number().int().min(1).max(100000).default(2).describe('reduce tasks of every job with a reducer (partitions of the shuffle)'),
    max_attempts: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(4)
      .describe("attempts a task gets before its job fails (spark.task.maxFailures; for local[N], Spark's local[N,F])"),
    python: z
      .string()
      .min(1)
      .optional()
      .describe("the Python that runs the driver and the tasks' PySpark workers, with pyspark 3.5 installed (absent: the project's .venv/spark, made from python/requirements-spark.txt on first use)"),
    node: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'no white space')
      .optional()
      .describe('the Node executable the tasks run the job script with (absent: this Node for local[N], `node` on a cluster)'),
    deploy_mode: z
      .enum(['client', 'cluster'])
      .default('client')
      .describe("spark-submit's --deploy-mode: the driver on the submitting machine (client) or on the cluster (cluster: YARN and Kubernetes; a standalone master runs Python drivers in client mode only)"),
    launch: z
      .enum(['python', 'spark-submit'])
      .optional()
      .describe('how the driver starts: `python driver.py` with the master in its SparkConf (absent: for local[N]), or the `spark-submit` command `--dry-run` prints (absent: for a cluster master)'),
    submit: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'no white space')
      .optional()
      .describe("the spark-submit executable (absent: the project's .venv/spark's for local[N], `spark-submit` on the PATH for a cluster)"),
    staging_dir: z
      .string()
      .superRefine((v, ctx) => {
        const p = stagingProblem(v);
        if (p) ctx.addIssue({ code: 'custom', message: p });
      })
      .optional()
      .describe('where the job script, the driver, the documents, specs and outputs are staged for spark-submit: a folder URI the cluster reads (hdfs://, s3://, s3a://, gs://, file:// on one machine); absent: the run\'s own folder, for local[N] only'),
    conf: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .default({})
      .describe('more Spark settings (spark.executor.memory: 4g, …), given to the application as --conf'),
  })
  .strict();

/** The file systems a staging folder may be on, as Spark's Hadoop file systems name them. */
export const STAGING_SCHEMES = ['file', 'hdfs', 's3', 's3a', 'gs'] as const;
export type StagingScheme = (typeof STAGING_SCHEMES)[number];

/** Why `uri` cannot be a staging folder, or undefined. Commas are refused: spark-submit's --files is a comma-separated list. */
export function stagingProblem(uri: string): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/.exec(uri);
  if (!m) return `${JSON.stringify(uri)} is not a folder URI like hdfs://namenode/ndd, s3://bucket/ndd, gs://bucket/ndd or file:///tmp/ndd`;
  if (!(STAGING_SCHEMES as readonly string[]).includes(m[1] as string)) return `${m[1]}:// is not a staging file system this backend knows (${STAGING_SCHEMES.map((s) => `${s}://`).join(', ')})`;
  if (m[1] === 'file' && m[2] !== '') return 'file:// URIs name no host: file:///absolute/path';
  if (m[1] !== 'file' && m[1] !== 'hdfs' && m[2] === '') return `${m[1]}:// needs a bucket: ${m[1]}://bucket/prefix`;
  if (/[\s,]/.test(uri)) return 'must not contain commas or white space (spark-submit --files is a comma-separated list)';
  return undefined;
}

export function stagingScheme(uri: string): StagingScheme {
  return uri.slice(0, uri.indexOf(':')) as StagingScheme;
}

/** Whether the master is one of Spark's local ones (`local`, `local[N]`, `local[N,F]`, `local[*]`). */
export function isLocalMaster(master: string): boolean {
  return master === 'local' || master.startsWith('local[');
}

/** Why spark-submit would refuse this master and deploy mode, or undefined. */
export function deployProblem(c: SparkConfig): string | undefined {
  if (c.deploy_mode !== 'cluster') return undefined;
  if (isLocalMaster(c.master)) return `backend.deploy_mode: cluster deploy mode is for a cluster's master, not ${c.master}`;
  if (c.master.startsWith('spark://')) return 'backend.deploy_mode: a standalone master (spark://) runs Python drivers in client mode only; use deploy_mode: client';
  return undefined;
}

/** How the driver starts (config.launch, else by the master). */
export function launchOf(c: SparkConfig): 'python' | 'spark-submit' {
  return c.launch ?? (isLocalMaster(c.master) ? 'python' : 'spark-submit');
}

export type SparkConfig = z.output<typeof sparkBackendSchema>;
