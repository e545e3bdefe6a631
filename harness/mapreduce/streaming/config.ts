/**
 * `backend: { kind: streaming, ... }`: Hadoop Streaming run locally with real processes.
 */
import { z } from 'zod';

export const streamingBackendSchema = z
  .object({
    kind: z
      .literal('streaming')
      .describe(
        "Hadoop Streaming imitated (fast, no Java): mapper | LC_ALL=C sort | reducer processes over text records; unlike Hadoop it does not stage -files, read -D options, compress, spill or commit, and keeps the values of a key in map-output order unless shuffle_seed is set (`kind: hadoop` runs Hadoop itself)",
      ),
    map_tasks: z
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(2)
      .describe("number of map tasks wished for (Hadoop's mapreduce.job.maps hint: the input is split into about this many parts)"),
    reduce_tasks: z.number().int().min(1).max(1024).default(2).describe('number of reduce tasks R (partitions of the shuffle)'),
    split_mb: z
      .number()
      .positive()
      .optional()
      .describe("largest input split in MB (Hadoop's block size); absent: no limit beyond map_tasks"),
    max_attempts: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(4)
      .describe(
        "attempts a map or reduce task gets before the job fails (Hadoop's mapreduce.map.maxattempts and mapreduce.reduce.maxattempts; each attempt starts from scratch)",
      ),
    shuffle_seed: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "permute the values within each key and the order of a map-only job's part files by this seed, as Hadoop may (it promises neither order): a test that no job depends on them; absent: map-output order, as `sort -s` keeps it",
      ),
    sort: z.string().min(1).default('sort').describe('the POSIX sort command to run (GNU sort; e.g. gsort on macOS)'),
  })
  .strict();

export type StreamingConfig = z.output<typeof streamingBackendSchema>;
