/**
 * `bench run --backend hadoop --dry-run`: the commands a run on the user's installation would
 * give, each `hadoop jar` line from the one builder (streaming-args.ts), and the files it stages,
 * without Hadoop, without reading the collection. Local mode from the pinned jars adds its own
 * settings (the block size from the staged bytes, `mapreduce.framework.name=local`), known only
 * when the documents are written; the plan says so.
 */
import { DOCUMENTS, DOCUMENTS_META, readsDataset, type JobSpec } from '../../../contract/index.ts';
import type { VariantJob } from '../backend.ts';
import type { HadoopConfig } from './config.ts';
import { JOB_SCRIPT_NAME, safeName, sideDatasetsOf, SPEC_NAME, streamingArgs } from './streaming-args.ts';

/** The settings every job is given on any installation (the backend's, before local mode's). */
export function jobSettings(c: HadoopConfig): [string, string][] {
  return [
    ['mapreduce.job.maps', String(c.map_tasks)],
    // The job client asks for progress every second by default: a second lost on most short jobs.
    ['mapreduce.client.progressmonitor.pollinterval', '100'],
    ['mapreduce.map.maxattempts', String(c.max_attempts)],
    ['mapreduce.reduce.maxattempts', String(c.max_attempts)],
  ];
}

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(w: string): string {
  return /^[\w@%+=:,./#-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

export interface HadoopDryRunVariant {
  readonly variant: string;
  readonly staged: readonly { readonly path: string; readonly what: string }[];
  readonly commands: readonly string[];
}

export interface HadoopDryRun {
  readonly kind: 'hadoop-plan';
  readonly installation: string;
  readonly variants: readonly HadoopDryRunVariant[];
}

export function hadoopDryRunPlan(c: HadoopConfig, variants: readonly Pick<VariantJob, 'variant' | 'plan'>[], runId: string): HadoopDryRun {
  const node = c.node ?? 'node';
  return {
    kind: 'hadoop-plan',
    installation:
      c.installation === 'pinned'
        ? 'local mode from the pinned jars: the same lines, with -D mapreduce.framework.name=local, fs.defaultFS=file:///, fs.local.block.size (the staged bytes / map_tasks) and hadoop.tmp.dir first'
        : "HADOOP_HOME's bin/hadoop, else `hadoop` on the PATH (else local mode from the pinned jars, as with installation: pinned)",
    variants: variants.map((v, i) => {
      const base = `${c.staging_dir.replace(/\/+$/, '')}/${runId}-v${String(i + 1).padStart(2, '0')}`;
      const dataset = (name: string): string => `${base}/${name === DOCUMENTS || name === DOCUMENTS_META ? name : safeName(name)}`;
      const staged = [
        { path: `${base}/${JOB_SCRIPT_NAME}`, what: 'the bundled job script (harness/mapreduce/streaming/bundle.ts)' },
        { path: `${base}/${SPEC_NAME}`, what: `the variant's spec: algorithm, parameters, min score, seed` },
        ...(readsDataset(v.plan.jobs, DOCUMENTS) ? [{ path: `${base}/${DOCUMENTS}/part-00000`, what: 'the documents as text records, index<TAB>text' }] : []),
        ...(readsDataset(v.plan.jobs, DOCUMENTS_META) ? [{ path: `${base}/${DOCUMENTS_META}/part-00000`, what: "each document's meta as JSON records" }] : []),
      ];
      const side = sideDatasetsOf(v.plan.jobs);
      const job = (j: JobSpec): string =>
        ['hadoop', 'jar', '$HADOOP_HOME/share/hadoop/tools/lib/hadoop-streaming-*.jar', ...streamingArgs(
          {
            jobName: `ndd-bench ${v.variant} ${j.name}`,
            reduceTasks: c.reduce_tasks,
            node,
            jobScript: `${base}/${JOB_SCRIPT_NAME}`,
            spec: `${base}/${SPEC_NAME}`,
            dataset,
            compressOutput: !side.has(j.output),
            settings: jobSettings(c),
          },
          j,
        )].map((w, k) => (k === 2 ? w : shellWord(w))).join(' ');
      return {
        variant: v.variant,
        staged,
        commands: [
          `hadoop fs -mkdir -p ${shellWord(base)}`,
          `hadoop fs -put <the staged files> ${shellWord(`${base}/`)}`,
          ...v.plan.jobs.map(job),
          `hadoop fs -get <the output part files> (then hadoop fs -rm -r ${shellWord(base)})`,
        ],
      };
    }),
  };
}
