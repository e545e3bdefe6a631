/**
 * The one builder of `hadoop-streaming` command lines: the EMR backend's steps
 * (`emr/steps.ts`) and the `hadoop` backend's `hadoop jar` runs (`hadoop/backend.ts`) both take
 * their arguments from here, so that what real Hadoop's local mode accepts in the tests is what
 * a paid EMR step is given.
 *
 * Hadoop insists that generic options (-D, -files) come BEFORE streaming options (-input,
 * -output, -mapper, -reducer, -combiner), "otherwise the command will fail" (research doc §1.2;
 * mrjob#892). Each -D is two argv entries, as mrjob does. Every task runs the one bundled job
 * script with the CLI of `harness/mapreduce/streaming/bundle.ts`, from the task's working
 * folder, where `-files` links the script, spec.json and each side dataset:
 *   node ndd-job.js --spec spec.json --job <job> --phase map|combine|reduce [--side <dataset>=<alias> …]
 *
 * Records are `key<TAB>value` with both fields escaped (`records.ts`): Hadoop's defaults (the
 * key is the line up to its first TAB, keys compared as bytes, HashPartitioner on the key) are
 * what the jobs expect, so no separator or key-field option is set. Hadoop promises no order of
 * the values within a key, and the jobs need none (the value-order test of the streaming backend).
 * Hadoop's PipeMapRed splits a task command at spaces with no quoting: every part of it must be
 * free of white space (checked here).
 */
import type { JobSpec } from '../../../contract/index.ts';

export const JOB_SCRIPT_NAME = 'ndd-job.js';
export const SPEC_NAME = 'spec.json';

export const GZIP_CODEC = 'org.apache.hadoop.io.compress.GzipCodec';
export const SNAPPY_CODEC = 'org.apache.hadoop.io.compress.SnappyCodec';

export interface StreamingJobContext {
  /** `mapreduce.job.name` */
  readonly jobName: string;
  /** reduce tasks of a job with a reducer (a map-only job gets 0) */
  readonly reduceTasks: number;
  /** the Node executable on the task nodes (`node-20` on EMR, an absolute path locally) */
  readonly node: string;
  /** URI of the bundled job script, whose file name is `ndd-job.js` */
  readonly jobScript: string;
  /** URI of the variant's spec.json */
  readonly spec: string;
  /** URI of a dataset (a folder of part files, or the documents' folder) */
  readonly dataset: (name: string) => string;
  /** Whether the job's output is gzip'd: not for a dataset some job loads whole as side data (the distributed cache does not decompress). */
  readonly compressOutput: boolean;
  /** Settings before ours (`mapreduce.framework.name=local`, a split size hint, …). */
  readonly settings?: readonly (readonly [name: string, value: string])[];
}

/** A name made safe for S3 keys, Hadoop paths and `-files` lists. */
export function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/**
 * `v03-broder_sct_70`, `v03p2-broder_mod_4_residue_1` (part 2 of variant 3): a variant name made
 * safe for S3 keys, Hadoop paths and `-files` lists. The position and part come first, so that
 * the slug stays unique when a long name is cut.
 */
export function variantSlug(index: number, variant: string, part?: number): string {
  return `v${String(index).padStart(2, '0')}${part === undefined ? '' : `p${part}`}-${safeName(variant)}`.slice(0, 100);
}

export function sideAlias(dataset: string): string {
  return `side-${safeName(dataset)}`;
}

/** Datasets any job of the plan reads as side data (written uncompressed: the distributed cache does not decompress). */
export function sideDatasetsOf(jobs: readonly JobSpec[]): Set<string> {
  return new Set(jobs.flatMap((j) => j.side ?? []));
}

function taskCommand(c: StreamingJobContext, job: JobSpec, phase: 'map' | 'combine' | 'reduce'): string {
  const side = (job.side ?? []).map((d) => ` --side ${d}=${sideAlias(d)}`).join('');
  const command = `${c.node} ${JOB_SCRIPT_NAME} --spec ${SPEC_NAME} --job ${job.name} --phase ${phase}${side}`;
  const parts = [c.node, job.name, ...(job.side ?? [])];
  const spaced = parts.find((p) => /\s/.test(p));
  if (spaced !== undefined) throw new Error(`hadoop-streaming: ${JSON.stringify(spaced)} has white space, which Hadoop's task command line cannot carry`);
  return command;
}

/** The `hadoop-streaming` arguments of one job, generic options first. */
export function streamingArgs(c: StreamingJobContext, job: JobSpec): string[] {
  const generic: string[] = [];
  for (const [name, value] of c.settings ?? []) generic.push('-D', `${name}=${value}`);
  generic.push(
    '-D', `mapreduce.job.name=${c.jobName}`,
    '-D', `mapreduce.job.reduces=${job.reducer ? c.reduceTasks : 0}`,
    '-D', 'mapreduce.map.output.compress=true',
    '-D', `mapreduce.map.output.compress.codec=${SNAPPY_CODEC}`,
  );
  if (c.compressOutput) {
    generic.push(
      '-D', 'mapreduce.output.fileoutputformat.compress=true',
      '-D', `mapreduce.output.fileoutputformat.compress.codec=${GZIP_CODEC}`,
    );
  }
  const files = [c.jobScript, c.spec];
  for (const d of job.side ?? []) files.push(`${c.dataset(d).replace(/\/$/, '')}#${sideAlias(d)}`);
  generic.push('-files', files.join(','));

  const streaming: string[] = [];
  for (const input of job.inputs) streaming.push('-input', c.dataset(input));
  streaming.push('-output', c.dataset(job.output));
  streaming.push('-mapper', taskCommand(c, job, 'map'));
  if (job.reducer) streaming.push('-reducer', taskCommand(c, job, 'reduce'));
  if (job.combiner) streaming.push('-combiner', taskCommand(c, job, 'combine'));
  return [...generic, ...streaming];
}
