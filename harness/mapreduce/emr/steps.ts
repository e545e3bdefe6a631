/**
 * One `command-runner.jar hadoop-streaming` step per job, its arguments built by
 * `../hadoop/streaming-args.ts` (the builder real Hadoop's local mode runs in the tests) with
 * the run's S3 locations.
 */
import type { ActionOnFailure, StepConfig } from '@aws-sdk/client-emr';
import type { JobSpec } from '../../../contract/index.ts';
import { DOCUMENTS, DOCUMENTS_META } from '../../../contract/index.ts';
import { sideDatasetsOf, streamingArgs } from '../hadoop/streaming-args.ts';
import { codeKey, datasetKey, documentsKey, documentsMetaKey, specKey, type RunLayout } from './layout.ts';
import { s3Uri } from './s3uri.ts';

/** AddJobFlowSteps limit on the total characters of a step's HadoopJarStep strings. */
export const MAX_STEP_CHARS = 10240;

export interface StepContext {
  readonly layout: RunLayout;
  readonly runId: string;
  readonly variant: string;
  readonly slug: string;
  /** The Node executable on the nodes (`node-20` after the default bootstrap). */
  readonly node: string;
  readonly reduceTasks: number;
  readonly actionOnFailure: ActionOnFailure;
  /** Datasets some job loads whole as side data: written uncompressed, since the distributed cache does not decompress. */
  readonly sideDatasets: ReadonlySet<string>;
}

export function stepName(runId: string, slug: string, job: string): string {
  return `ndd-bench ${runId} ${slug} ${job}`.slice(0, 256);
}

export function datasetUri(c: StepContext, dataset: string): string {
  const key =
    dataset === DOCUMENTS ? documentsKey(c.layout) : dataset === DOCUMENTS_META ? documentsMetaKey(c.layout) : datasetKey(c.layout, c.slug, dataset);
  return s3Uri(c.layout.bucket, key);
}

/** The step's `hadoop-streaming` arguments, from the builder the `hadoop` backend runs too. */
export function emrStreamingArgs(c: StepContext, job: JobSpec): string[] {
  const args = streamingArgs(
    {
      jobName: stepName(c.runId, c.slug, job.name),
      reduceTasks: c.reduceTasks,
      node: c.node,
      jobScript: s3Uri(c.layout.bucket, codeKey(c.layout)),
      spec: s3Uri(c.layout.bucket, specKey(c.layout, c.slug)),
      dataset: (d) => datasetUri(c, d),
      compressOutput: !c.sideDatasets.has(job.output),
    },
    job,
  );
  return ['hadoop-streaming', ...args];
}

export function buildStep(c: StepContext, job: JobSpec): StepConfig {
  const args = emrStreamingArgs(c, job);
  const chars = 'command-runner.jar'.length + args.reduce((n, a) => n + a.length, 0);
  if (chars > MAX_STEP_CHARS) {
    throw new Error(`EMR step for ${c.variant}/${job.name} has ${chars} characters of arguments (limit ${MAX_STEP_CHARS})`);
  }
  return {
    Name: stepName(c.runId, c.slug, job.name),
    ActionOnFailure: c.actionOnFailure,
    HadoopJarStep: { Jar: 'command-runner.jar', Args: args },
  };
}

export { sideDatasetsOf };
