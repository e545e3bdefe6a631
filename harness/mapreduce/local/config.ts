/**
 * `backend: { kind: local, ... }`: in process, worker threads across the cores.
 */
import { z } from 'zod';

/**
 * Default price of one vCPU-hour in USD, for the cost columns: AWS EC2 On-Demand, Linux,
 * us-east-1, m7i.large (general purpose, 2 vCPU) at $0.1008 per hour, so $0.0504 per
 * vCPU-hour (aws.amazon.com/ec2/pricing/on-demand/; the list price since m7i's launch in
 * August 2023, taken as of 2026-11-22 without a live re-check).
 */
export const PRICE_PER_VCPU_HOUR_USD = 0.0504;

export const localBackendSchema = z
  .object({
    kind: z.literal('local').describe('in process, parallel across cores'),
    workers: z.number().int().min(1).optional().describe('worker threads; default: the number of CPUs'),
    engine: z
      .enum(['auto', 'jobs'])
      .default('auto')
      .describe("auto: an algorithm's in-process kernel when it has one; jobs: always its MapReduce jobs"),
    memory_mb: z.number().int().min(16).default(2048).describe('memory budget (MB): the shuffle spills to disk beyond it, and a kernel that would not fit runs as text jobs'),
    texts_mb: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "the documents' texts held in memory up to this many MB (a character a byte), beyond it read back from a file in the run's work folder; default: the smaller of half of memory_mb and 60% of V8's heap limit",
      ),
    price_per_vcpu_hour: z
      .number()
      .min(0)
      .default(PRICE_PER_VCPU_HOUR_USD)
      .describe('USD per vCPU-hour for the cost columns (default: AWS EC2 m7i.large on-demand, us-east-1)'),
  })
  .strict();
