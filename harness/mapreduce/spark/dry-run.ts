/**
 * `bench run … --backend spark --dry-run`: what a spark-submit run would stage, where, and the
 * exact command it would run, for any cluster spark-submit reaches (a standalone master, YARN,
 * Kubernetes, Dataproc, Databricks) or local[N]. Pure: no Spark, no network, no collection read.
 * The command is submit.ts's `submitArgv`, the one a run with `launch: spark-submit` executes.
 */
import { DOCUMENTS, DOCUMENTS_META } from '../../../contract/index.ts';
import type { VariantJob } from '../backend.ts';
import { JOB_SCRIPT_NAME, SPEC_NAME, variantSlug } from '../hadoop/streaming-args.ts';
import { outputDatasets } from '../outputs.ts';
import { shellLine } from '../../format.ts';

import { deployProblem, isLocalMaster, launchOf, stagingScheme, type SparkConfig, type StagingScheme } from './config.ts';
import { UserError } from '../../errors.ts';
import { NODE_REQUIREMENT, NODE_VERSION, nodeInstallHowTo, nodeInstallScript } from './node-install.ts';
import { DRIVER } from './runtime.ts';
import { projectPythonPath } from './runtime.ts';
import { fetchCommand, selfStaged, stageCommand } from './stage.ts';
import {
  appName, COMMONJS_PACKAGE, DRIVER_NAME, NODE_SCRIPT_NAME, PACKAGE_JSON, PLAN_NAME, sparkPlaces, submitArgv, submitDriverPlan, submitProgram, submitPython, taskNode, uriJoin,
} from './submit.ts';
import { readFileSync } from 'node:fs';

/** Stands for the staging folder when the config names none (local[N]: the run's own folder). */
export const STAGING_PLACEHOLDER = 'file:///<run folder>/staging';

export interface StagedFile {
  readonly uri: string;
  /** Exact bytes when known before the run; null otherwise. */
  readonly bytes: number | null;
  readonly what: string;
  /** The command that puts it there, for the staging schemes a run does not stage itself (hdfs://, gs://). */
  readonly command?: string;
}

export interface SparkSubmitPlan {
  readonly kind: 'spark-submit-plan';
  readonly runId: string;
  readonly master: string;
  readonly deployMode: 'client' | 'cluster';
  readonly launch: 'python' | 'spark-submit';
  readonly staging: { readonly dir: string; readonly by: string };
  readonly documents: { readonly count: number; readonly recordBytes: number };
  readonly node: { readonly requirement: string; readonly executable: string; readonly script: string; readonly install: Record<string, string> };
  readonly stage: readonly StagedFile[];
  readonly variants: readonly {
    readonly variant: string;
    readonly submit: readonly string[];
    readonly command: string;
    readonly outputs: Record<string, string>;
    /** Commands that copy the outputs back, for the staging schemes a run does not read itself. */
    readonly fetch?: readonly string[];
  }[];
}

export interface SparkDryRunInput {
  readonly config: SparkConfig;
  readonly variants: readonly Pick<VariantJob, 'variant' | 'algorithm' | 'params' | 'minScore' | 'seed' | 'plan' | 'position' | 'part'>[];
  /** the documents' count and bytes as text records (estimated without the collection) */
  readonly docs: { readonly count: number; readonly recordBytes: number };
  readonly runId: string;
}

export function sparkDryRunPlan(i: SparkDryRunInput): SparkSubmitPlan {
  const c = i.config;
  const deploy = deployProblem(c);
  if (deploy !== undefined) throw new UserError(deploy);
  const dir = c.staging_dir ?? STAGING_PLACEHOLDER;
  const scheme: StagingScheme = c.staging_dir === undefined ? 'file' : stagingScheme(c.staging_dir);
  const ours = c.staging_dir === undefined || selfStaged(c.staging_dir);
  const places = sparkPlaces(dir, i.runId);
  // The run's python on one machine is the project's environment (installed on first use).
  const runtime = isLocalMaster(c.master) ? { python: c.python ?? projectPythonPath() } : undefined;
  const stage: StagedFile[] = [];
  const put = (uri: string, bytes: number | null, what: string, local: string): void => {
    stage.push({ uri, bytes, what, ...(ours ? {} : { command: shellLine(stageCommand(scheme, local, uri)) }) });
  };
  const nodeScript = nodeInstallScript();
  put(places.code(JOB_SCRIPT_NAME), null, 'the job script, bundled by harness/mapreduce/streaming/bundle.ts (every detector)', JOB_SCRIPT_NAME);
  put(places.code(PACKAGE_JSON), Buffer.byteLength(COMMONJS_PACKAGE), `${COMMONJS_PACKAGE.trim()}: the job script is CommonJS`, PACKAGE_JSON);
  put(places.code(DRIVER_NAME), readFileSync(DRIVER).length, 'the driver, python/spark/driver.py', 'python/spark/driver.py');
  put(places.code(NODE_SCRIPT_NAME), Buffer.byteLength(nodeScript), `Node ${NODE_VERSION} for the executors: a Dataproc initialization action, Databricks init script or EMR bootstrap action`, NODE_SCRIPT_NAME);
  put(uriJoin(places.dataset('', DOCUMENTS), 'part-00000'), null, `the ${i.docs.count} documents as text records (index TAB text), about ${i.docs.recordBytes} bytes`, 'documents/part-00000');
  put(uriJoin(places.dataset('', DOCUMENTS_META), 'part-00000'), null, "each document's meta as JSON text records", 'documents-meta/part-00000');

  const variants = i.variants.map((v, k) => {
    const slug = variantSlug(v.position ?? k + 1, v.variant, v.part);
    const spec = JSON.stringify({ algorithm: v.algorithm, params: v.params, minScore: v.minScore, seed: v.seed });
    put(uriJoin(places.variant(slug), SPEC_NAME), Buffer.byteLength(spec), `spec of ${v.variant}: ${spec}`, `${slug}/${SPEC_NAME}`);
    const plan = JSON.stringify(submitDriverPlan(c, places, slug, v.plan.jobs), null, 1);
    put(uriJoin(places.variant(slug), PLAN_NAME), Buffer.byteLength(plan), `the driver's plan of ${v.variant}: ${v.plan.jobs.length} jobs (${v.plan.jobs.map((j) => j.name).join(', ')})`, `${slug}/${PLAN_NAME}`);
    const argv = submitArgv({ config: c, places, slug, appName: appName(i.runId, v.variant), submit: submitProgram(c, runtime), python: submitPython(c, runtime) });
    const outputs = Object.fromEntries(outputDatasets(v.plan.output).map((name) => [name, places.dataset(slug, name)]));
    return {
      variant: v.variant,
      submit: argv,
      command: shellLine(argv),
      outputs,
      ...(ours ? {} : { fetch: Object.entries(outputs).map(([name, uri]) => shellLine(fetchCommand(scheme, uri, `${slug}/${name}/`))) }),
    };
  });
  return {
    kind: 'spark-submit-plan',
    runId: i.runId,
    master: c.master,
    deployMode: c.deploy_mode,
    launch: launchOf(c),
    staging: {
      dir: places.run,
      by: ours
        ? `this run (${scheme === 'file' ? 'the file system' : 'the S3 upload of the EMR backend'}), before the first spark-submit`
        : `you, with the commands of each file below, before each spark-submit; a run stages to file:// and s3:// only (${scheme}://: the driver reads and writes it through Spark's Hadoop file systems)`,
    },
    documents: { count: i.docs.count, recordBytes: i.docs.recordBytes },
    node: { requirement: NODE_REQUIREMENT, executable: taskNode(c), script: places.code(NODE_SCRIPT_NAME), install: nodeInstallHowTo(places.code(NODE_SCRIPT_NAME)) },
    stage,
    variants,
  };
}
