/**
 * `backend: { kind: hadoop, ... }`: each job submitted to Apache Hadoop with `hadoop jar` and
 * Hadoop's own streaming jar: the user's installation (HADOOP_HOME, or `hadoop` on the PATH)
 * or, when there is none, Hadoop's local mode from the jars `hadoop/pom.xml` pins.
 */
import { z } from 'zod';

export const hadoopBackendSchema = z
  .object({
    kind: z.literal('hadoop').describe("Apache Hadoop's own streaming runtime: the user's installation, else local mode from the pinned jars"),
    installation: z
      .enum(['auto', 'pinned'])
      .default('auto')
      .describe(
        "auto: HADOOP_HOME's bin/hadoop, else `hadoop` on the PATH, else local mode from the pinned jars (scripts/ensure-hadoop.ts); pinned: always the pinned jars in local mode",
      ),
    staging_dir: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'no white space (Hadoop paths in task command lines cannot carry it)')
      .default('/tmp/ndd-bench')
      .describe("folder on the installation's default file system (e.g. hdfs:///user/me/ndd) where the documents and job outputs are staged; each run gets a subfolder, removed after it"),
    map_tasks: z
      .number()
      .int()
      .min(1)
      .max(100000)
      .default(2)
      .describe("map tasks wished for (Hadoop's mapreduce.job.maps hint: the input is split into about this many parts)"),
    reduce_tasks: z.number().int().min(1).max(100000).default(2).describe("reduce tasks of every job with a reducer (Hadoop's mapreduce.job.reduces)"),
    max_attempts: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(4)
      .describe("attempts a map or reduce task gets (mapreduce.map.maxattempts, mapreduce.reduce.maxattempts; local mode makes one only)"),
    node: z
      .string()
      .min(1)
      .optional()
      .describe('the Node executable the task processes run (absent: this Node for local mode, `node` for an installation)'),
  })
  .strict();

export type HadoopConfig = z.output<typeof hadoopBackendSchema>;
