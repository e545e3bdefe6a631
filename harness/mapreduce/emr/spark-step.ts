/**
 * `engine: spark`: a variant is one EMR step, `command-runner.jar spark-submit …` (Spark on YARN,
 * cluster deploy mode), running python/spark/driver.py over the variant's whole plan with the
 * same job script, bootstrap, S3 layout, costs and termination rules as the hadoop-streaming
 * steps. The command is the spark backend's own (harness/mapreduce/spark/submit.ts) with the
 * run's S3 places: the staging folder is `s3_prefix`, so that the layouts are one.
 */
import type { ActionOnFailure, StepConfig } from '@aws-sdk/client-emr';
import type { JobSpec } from '../../../contract/index.ts';
import { sparkBackendSchema, type SparkConfig } from '../spark/config.ts';
import { appName, sparkPlaces, submitArgv, submitDriverPlan, type SparkPlaces } from '../spark/submit.ts';
import type { EmrBackendConfig } from './config.ts';
import { MAX_STEP_CHARS, stepName } from './steps.ts';

/** The spark settings of an EMR step: YARN in cluster mode, the bootstrap's Node, the streaming steps' reducers. */
export function emrSparkConfig(c: EmrBackendConfig, reduceTasks: number): SparkConfig {
  return sparkBackendSchema.parse({
    kind: 'spark',
    master: 'yarn',
    deploy_mode: 'cluster',
    launch: 'spark-submit',
    staging_dir: c.s3_prefix,
    node: c.node_bootstrap.binary,
    reduce_tasks: reduceTasks,
    conf: c.spark_conf,
  });
}

export function emrSparkPlaces(c: EmrBackendConfig, runId: string): SparkPlaces {
  return sparkPlaces(c.s3_prefix, runId);
}

/** The driver's plan of a variant, as staged at `variants/<slug>/plan.json`. */
export function emrSparkPlanJson(c: EmrBackendConfig, runId: string, slug: string, jobs: readonly JobSpec[], reduceTasks: number): string {
  return JSON.stringify(submitDriverPlan(emrSparkConfig(c, reduceTasks), emrSparkPlaces(c, runId), slug, jobs), null, 1);
}

export function sparkStep(
  c: EmrBackendConfig,
  o: { readonly runId: string; readonly slug: string; readonly variant: string; readonly reduceTasks: number; readonly actionOnFailure: ActionOnFailure },
): StepConfig {
  const args = submitArgv({
    config: emrSparkConfig(c, o.reduceTasks),
    places: emrSparkPlaces(c, o.runId),
    slug: o.slug,
    appName: appName(o.runId, o.variant),
    submit: 'spark-submit',
    python: undefined,
  });
  const chars = 'command-runner.jar'.length + args.reduce((n, a) => n + a.length, 0);
  if (chars > MAX_STEP_CHARS) throw new Error(`EMR step for ${o.variant} has ${chars} characters of arguments (limit ${MAX_STEP_CHARS})`);
  return { Name: stepName(o.runId, o.slug, 'spark-submit'), ActionOnFailure: o.actionOnFailure, HadoopJarStep: { Jar: 'command-runner.jar', Args: args } };
}
