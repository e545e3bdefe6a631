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
    conf: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .default({})
      .describe('more Spark settings (spark.executor.memory: 4g, …), given to the application as --conf'),
  })
  .strict();

export type SparkConfig = z.output<typeof sparkBackendSchema>;
