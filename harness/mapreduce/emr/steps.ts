/**
 * One `command-runner.jar hadoop-streaming` step per job. Hadoop insists that generic
 * options (-D, -files) come BEFORE streaming options (-input, -output, -mapper, -reducer,
 * -combiner), "otherwise the command will fail" (research doc §1.2; mrjob#892). Each -D is two
 * argv entries, as mrjob does. Every task runs the one bundled job script with the CLI of
 * `harness/mapreduce/streaming/bundle.ts`:
 *   node ndd-job.js --spec spec.json --job <job> --phase map|combine|reduce [--side <dataset>=<file> …]
 */
import type { ActionOnFailure, StepConfig } from '@aws-sdk/client-emr';
import type { JobSpec } from '../../../contract/index.ts';
import { DOCUMENTS, DOCUMENTS_META } from '../../../contract/index.ts';
import { codeKey, datasetKey, documentsKey, documentsMetaKey, JOB_SCRIPT_NAME, safeName, SPEC_NAME, specKey, type RunLayout } from './layout.ts';
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

const GZIP = 'org.apache.hadoop.io.compress.GzipCodec';
const SNAPPY = 'org.apache.hadoop.io.compress.SnappyCodec';

export function stepName(runId: string, slug: string, job: string): string {
  return `ndd-bench ${runId} ${slug} ${job}`.slice(0, 256);
}

export function datasetUri(c: StepContext, dataset: string): string {
  const key =
    dataset === DOCUMENTS ? documentsKey(c.layout) : dataset === DOCUMENTS_META ? documentsMetaKey(c.layout) : datasetKey(c.layout, c.slug, dataset);
  return s3Uri(c.layout.bucket, key);
}

function sideAlias(dataset: string): string {
  return `side-${safeName(dataset)}`;
}

function taskCommand(c: StepContext, job: JobSpec, phase: 'map' | 'combine' | 'reduce'): string {
  const side = (job.side ?? []).map((d) => ` --side ${d}=${sideAlias(d)}`).join('');
  return `${c.node} ${JOB_SCRIPT_NAME} --spec ${SPEC_NAME} --job ${job.name} --phase ${phase}${side}`;
}

export function streamingArgs(c: StepContext, job: JobSpec): string[] {
  const generic: string[] = [
    '-D', `mapreduce.job.name=${stepName(c.runId, c.slug, job.name)}`,
    '-D', `mapreduce.job.reduces=${job.reducer ? c.reduceTasks : 0}`,
    '-D', 'mapreduce.map.output.compress=true',
    '-D', `mapreduce.map.output.compress.codec=${SNAPPY}`,
  ];
  if (!c.sideDatasets.has(job.output)) {
    generic.push(
      '-D', 'mapreduce.output.fileoutputformat.compress=true',
      '-D', `mapreduce.output.fileoutputformat.compress.codec=${GZIP}`,
    );
  }
  const files = [s3Uri(c.layout.bucket, codeKey(c.layout)), s3Uri(c.layout.bucket, specKey(c.layout, c.slug))];
  for (const d of job.side ?? []) files.push(`${datasetUri(c, d).replace(/\/$/, '')}#${sideAlias(d)}`);
  generic.push('-files', files.join(','));

  const streaming: string[] = [];
  for (const input of job.inputs) streaming.push('-input', datasetUri(c, input));
  streaming.push('-output', datasetUri(c, job.output));
  streaming.push('-mapper', taskCommand(c, job, 'map'));
  if (job.reducer) streaming.push('-reducer', taskCommand(c, job, 'reduce'));
  if (job.combiner) streaming.push('-combiner', taskCommand(c, job, 'combine'));
  return ['hadoop-streaming', ...generic, ...streaming];
}

export function buildStep(c: StepContext, job: JobSpec): StepConfig {
  const args = streamingArgs(c, job);
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

/** Datasets any job of the plan reads as side data. */
export function sideDatasetsOf(jobs: readonly JobSpec[]): Set<string> {
  return new Set(jobs.flatMap((j) => j.side ?? []));
}
