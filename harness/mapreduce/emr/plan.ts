/**
 * The complete EMR plan of a run, as a pure function: every S3 object written, every API
 * request with its parameters, in the order the backend makes them. The backend builds its
 * requests with the same functions, so `bench run … --backend emr --dry-run` shows exactly
 * what a real run would do, without credentials or network.
 */
import type { ActionOnFailure, InstanceFleetConfig, InstanceGroupConfig, RunJobFlowCommandInput, StepConfig } from '@aws-sdk/client-emr';
import { DOCUMENTS_META, readsDataset } from '../../../contract/index.ts';
import type { VariantJob } from '../backend.ts';
import { installNodeScript } from './bootstrap.ts';
import { clusterGroups, clusterMode, clusterNodes, roleMarket, logUri, reduceTasks, type ClusterMode, type EmrBackendConfig } from './config.ts';
import { groupIntervals, clusterRatePerHour } from './cost.ts';
import {
  bootstrapKey, codeKey, consoleLink, datasetKey, documentsMetaPartKey, driverKey, packageJsonKey, runLayout, sparkPlanKey, sparkResultKey, specKey, splitKey, variantSlug, type RunLayout,
} from './layout.ts';
import { defaultPriceTable, findPrice, hourlyRate, type PriceTable } from './prices.ts';
import { parseS3Uri, s3Uri } from './s3uri.ts';
import { splitCount, type DocsDescription } from './splits.ts';
import { buildStep, sideDatasetsOf, type StepContext } from './steps.ts';
import type { CostCurves } from './cost-curves.ts';
import { estimateEmrRun, estimateLines, type EmrEstimate, type SpotPrices } from './estimate.ts';
import { emrSparkPlanJson, sparkStep } from './spark-step.ts';
import { DRIVER } from '../spark/runtime.ts';
import { COMMONJS_PACKAGE } from '../spark/submit.ts';
import { readFileSync } from 'node:fs';

/** The part of a variant the plan needs (a VariantJob fits). */
export type PlannedVariant = Pick<VariantJob, 'variant' | 'algorithm' | 'params' | 'minScore' | 'seed' | 'plan' | 'position' | 'part'>;

export interface PlannedObject {
  readonly uri: string;
  /** Exact bytes; for input splits the uncompressed bytes (the object is gzip); null when known only at run time. */
  readonly bytes: number | null;
  readonly what: string;
}

export interface PlannedRequest {
  readonly service: 's3' | 'emr';
  readonly operation: string;
  readonly params: object;
  /** When and how often, for the requests that are not made exactly once. */
  readonly when?: string;
}

export interface EmrPlan {
  readonly kind: 'emr-plan';
  readonly runId: string;
  readonly region: string;
  readonly releaseLabel: string;
  readonly cluster:
    | {
        readonly kind: 'new';
        readonly master: { type: string; count: number };
        readonly core: { type: string; count: number };
        readonly task?: { type: string; count: number };
        readonly capacity: 'instance groups, on demand' | 'instance fleets';
      }
    | { readonly kind: 'existing'; readonly clusterId: string; readonly consoleLink: string };
  readonly documents: { readonly count: number; readonly recordBytes: number; readonly splits: number; readonly splitMb: number; readonly exact: boolean };
  readonly objects: readonly PlannedObject[];
  readonly requests: readonly PlannedRequest[];
  readonly cost: {
    readonly priceTableDate: string;
    readonly ratePerHourUsd: number | null;
    readonly maxCostUsd: number;
    /** Minutes the cluster can live before the cap terminates it (new clusters only). */
    readonly minutesUntilCap: number | null;
  };
  /** hours and dollars from the cost curves, or why there is none */
  readonly estimate: EmrEstimate | { readonly unavailable: string };
  /** the estimate in lines people read (the CLI prints them to stderr beside the JSON) */
  readonly summary: readonly string[];
}

/** Bytes of python/spark/driver.py, staged for engine: spark. */
export function driverBytes(): number {
  return readFileSync(DRIVER).length;
}

/** A placeholder for values EMR assigns at run time. */
export const CLUSTER_ID = '<cluster-id>';

export function specJson(v: PlannedVariant): string {
  return `${JSON.stringify({ algorithm: v.algorithm, params: v.params, minScore: v.minScore, seed: v.seed })}\n`;
}

export function nodeBinary(c: EmrBackendConfig): string {
  return c.node_bootstrap.binary;
}

export function layoutOf(c: EmrBackendConfig, runId: string): RunLayout {
  const { bucket, prefix } = parseS3Uri(c.s3_prefix);
  return runLayout(bucket, prefix, runId);
}

export function bootstrapScript(c: EmrBackendConfig): string | undefined {
  return c.node_bootstrap.kind === 'dnf' ? installNodeScript(c.node_bootstrap.package, c.node_bootstrap.binary) : undefined;
}

export function variantSteps(
  c: EmrBackendConfig,
  runId: string,
  index: number,
  v: PlannedVariant,
  prices: PriceTable,
): { slug: string; steps: StepConfig[] } {
  const mode = clusterMode(c);
  const slug = variantSlug(index, v.variant, v.part);
  // On a cluster of our own a failed step cancels the rest; on the user's cluster CANCEL_AND_WAIT
  // would also cancel their steps, so ours continue and the backend cancels its own.
  const actionOnFailure: ActionOnFailure = mode.kind === 'new' ? 'CANCEL_AND_WAIT' : 'CONTINUE';
  const ctx: StepContext = {
    layout: layoutOf(c, runId),
    runId,
    variant: v.variant,
    slug,
    node: nodeBinary(c),
    reduceTasks: reduceTasks(c, prices),
    actionOnFailure,
    sideDatasets: sideDatasetsOf(v.plan.jobs),
  };
  if (c.engine === 'spark') {
    return { slug, steps: [sparkStep(c, { runId, slug, variant: v.variant, reduceTasks: ctx.reduceTasks, actionOnFailure })] };
  }
  return { slug, steps: v.plan.jobs.map((j) => buildStep(ctx, j)) };
}

type NewCluster = Extract<ClusterMode, { kind: 'new' }>;

function instanceGroups(mode: NewCluster): InstanceGroupConfig[] {
  return [
    { Name: 'master', InstanceRole: 'MASTER', Market: 'ON_DEMAND', InstanceType: mode.master.type, InstanceCount: mode.master.count },
    ...(mode.core.count > 0 ? [{ Name: 'core', InstanceRole: 'CORE' as const, Market: 'ON_DEMAND' as const, InstanceType: mode.core.type, InstanceCount: mode.core.count }] : []),
    ...(mode.task ? [{ Name: 'task', InstanceRole: 'TASK' as const, Market: 'ON_DEMAND' as const, InstanceType: mode.task.type, InstanceCount: mode.task.count }] : []),
  ];
}

/**
 * Instance fleets: the master one on-demand instance; core and task sized in vCPUs (each type
 * weighted by its vCPUs, so that an alternative type of another size fills the same capacity),
 * on spot where configured, allocated price-capacity-optimized and switched to on demand when
 * spot capacity is not found in time.
 */
function instanceFleets(mode: NewCluster, prices: PriceTable, region: string): InstanceFleetConfig[] {
  const fleets = mode.fleets;
  if (!fleets) return [];
  const vcpu = (t: string): number => {
    const p = findPrice(prices, region, t);
    if (!p) throw new Error(`no price for ${t} in ${region}`);
    return p.vcpu;
  };
  const fleet = (role: 'core' | 'task', g: { type: string; count: number }): InstanceFleetConfig => {
    const spot = roleMarket(mode, role) === 'SPOT';
    const types = [...new Set([g.type, ...(spot ? fleets.alternatives : [])])];
    const capacity = g.count * vcpu(g.type);
    return {
      Name: role,
      InstanceFleetType: role === 'core' ? 'CORE' : 'TASK',
      ...(spot ? { TargetSpotCapacity: capacity, TargetOnDemandCapacity: 0 } : { TargetOnDemandCapacity: capacity, TargetSpotCapacity: 0 }),
      InstanceTypeConfigs: types.map((t) => ({ InstanceType: t, WeightedCapacity: vcpu(t), ...(spot ? { BidPriceAsPercentageOfOnDemandPrice: 100 } : {}) })),
      LaunchSpecifications: spot
        ? {
            SpotSpecification: { TimeoutDurationMinutes: fleets.spot_timeout_min, TimeoutAction: 'SWITCH_TO_ON_DEMAND', AllocationStrategy: 'price-capacity-optimized' },
            OnDemandSpecification: { AllocationStrategy: 'lowest-price' },
          }
        : { OnDemandSpecification: { AllocationStrategy: 'lowest-price' } },
    };
  };
  return [
    { Name: 'master', InstanceFleetType: 'MASTER', TargetOnDemandCapacity: mode.master.count, InstanceTypeConfigs: [{ InstanceType: mode.master.type }] },
    ...(mode.core.count > 0 ? [fleet('core', mode.core)] : []),
    ...(mode.task ? [fleet('task', mode.task)] : []),
  ];
}

export function runJobFlowInput(
  c: EmrBackendConfig,
  mode: Extract<ClusterMode, { kind: 'new' }>,
  runId: string,
  steps: StepConfig[],
  prices: PriceTable = defaultPriceTable(),
): RunJobFlowCommandInput {
  const layout = layoutOf(c, runId);
  const bootstrapPath =
    c.node_bootstrap.kind === 'dnf'
      ? s3Uri(layout.bucket, bootstrapKey(layout))
      : c.node_bootstrap.kind === 'script'
        ? c.node_bootstrap.path
        : undefined;
  const args = c.node_bootstrap.kind === 'script' ? [...c.node_bootstrap.args] : [];
  return {
    Name: `ndd-bench ${runId}`,
    ReleaseLabel: c.release_label,
    LogUri: logUri(c),
    Applications: c.engine === 'spark' ? [{ Name: 'Hadoop' }, { Name: 'Spark' }] : [{ Name: 'Hadoop' }],
    ServiceRole: c.service_role,
    JobFlowRole: c.instance_profile,
    VisibleToAllUsers: true,
    Instances: {
      ...(mode.fleets ? { InstanceFleets: instanceFleets(mode, prices, c.region) } : { InstanceGroups: instanceGroups(mode) }),
      // Alive between variants (steps are added per variant); close() terminates it, and the
      // idle auto-termination below is the safety net if this process dies.
      KeepJobFlowAliveWhenNoSteps: true,
      TerminationProtected: false,
      ...(c.subnet_id ? { Ec2SubnetId: c.subnet_id } : {}),
    },
    ...(bootstrapPath ? { BootstrapActions: [{ Name: 'install-node', ScriptBootstrapAction: { Path: bootstrapPath, Args: args } }] } : {}),
    Steps: steps,
    StepConcurrencyLevel: 1,
    AutoTerminationPolicy: { IdleTimeout: c.idle_timeout_s },
    Tags: [
      { Key: 'project', Value: 'ndd-bench' },
      { Key: 'ndd-bench-run', Value: runId },
    ],
  };
}

/** USD per hour of the configured cluster, or null when a type has no price (existing clusters). */
export function configuredRatePerHour(c: EmrBackendConfig, prices: PriceTable): number | null {
  const mode = clusterMode(c);
  if (mode.kind === 'existing') return null;
  const rate = (t: string): number => {
    const p = findPrice(prices, c.region, t);
    if (!p) throw new Error(`no price for ${t} in ${c.region}`);
    return hourlyRate(p);
  };
  return clusterRatePerHour(groupIntervals(clusterGroups(mode), 0, 1), rate, 0);
}

export interface EmrPlanInput {
  readonly config: EmrBackendConfig;
  readonly variants: readonly PlannedVariant[];
  readonly docs: DocsDescription;
  readonly runId?: string;
  readonly prices?: PriceTable;
  /** Size of the bundled job script when it has been built; null in a pure dry run. */
  readonly bundleBytes?: number | null;
  /** Size of the documents-meta object when the documents are known. */
  readonly metaBytes?: number | null;
  /** the cost curves the estimate is made from (cost-curves.ts), or why they could not be read */
  readonly curves?: { readonly curves: CostCurves; readonly file: string } | { readonly unavailable: string };
  /** UTF-8 bytes of the documents' text, when known; else recordBytes stands for it */
  readonly textBytes?: number;
  readonly spot?: SpotPrices;
}

/** The run's estimate (estimate.ts) for the config's own cluster, or why there is none. */
export function planEstimate(
  c: EmrBackendConfig,
  o: {
    readonly variants: readonly Pick<PlannedVariant, 'variant' | 'algorithm' | 'params'>[];
    readonly documents: { readonly count: number; readonly textBytes: number; readonly exact: boolean };
    readonly curves: EmrPlanInput['curves'];
    readonly prices: PriceTable;
    readonly spot?: SpotPrices;
  },
): EmrEstimate | { readonly unavailable: string } {
  const mode = clusterMode(c);
  if (mode.kind === 'existing') return { unavailable: `cluster ${mode.clusterId} is yours: its instances are known only when the run lists them` };
  if (!o.curves) return { unavailable: 'no cost curves given' };
  if ('unavailable' in o.curves) return { unavailable: o.curves.unavailable };
  return estimateEmrRun({
    region: c.region,
    nodes: clusterNodes(mode),
    variants: o.variants,
    documents: o.documents,
    curves: o.curves.curves,
    curvesFile: o.curves.file,
    prices: o.prices,
    ...(o.spot ? { spot: o.spot } : {}),
  });
}

export function estimateSummary(e: EmrEstimate | { readonly unavailable: string }): string[] {
  return 'unavailable' in e ? [`EMR estimate: none (${e.unavailable})`] : estimateLines(e);
}

export function emrDryRunPlan(input: EmrPlanInput): EmrPlan {
  const c = input.config;
  const runId = input.runId ?? 'dry-run';
  const prices = input.prices ?? defaultPriceTable();
  const mode = clusterMode(c);
  const layout = layoutOf(c, runId);
  const { bucket } = layout;
  const objects: PlannedObject[] = [];
  const requests: PlannedRequest[] = [];
  const upload = (key: string, bytes: number | null, what: string, extra: Record<string, unknown> = {}): void => {
    objects.push({ uri: s3Uri(bucket, key), bytes, what });
    requests.push({
      service: 's3',
      operation: 'Upload',
      params: { Bucket: bucket, Key: key, ...extra },
      when: 'lib-storage Upload: PutObject, or CreateMultipartUpload + UploadPart + CompleteMultipartUpload above 5 MiB',
    });
  };

  requests.push({ service: 's3', operation: 'HeadBucket', params: { Bucket: bucket }, when: 'preflight: credentials and bucket' });
  if (mode.kind === 'existing') {
    requests.push({ service: 'emr', operation: 'DescribeCluster', params: { ClusterId: mode.clusterId }, when: 'preflight: cluster is WAITING or RUNNING' });
    requests.push({ service: 'emr', operation: 'ListInstances', params: { ClusterId: mode.clusterId, InstanceStates: ['RUNNING'] }, when: 'preflight: instance types are in the price table' });
  }
  upload(codeKey(layout), input.bundleBytes ?? null, 'job script bundled by harness/mapreduce/streaming/bundle.ts (all algorithms)', { ContentType: 'text/javascript' });
  const boot = bootstrapScript(c);
  if (boot !== undefined) upload(bootstrapKey(layout), Buffer.byteLength(boot), `bootstrap action: dnf install ${c.node_bootstrap.kind === 'dnf' ? c.node_bootstrap.package : ''}`.trim(), { ContentType: 'text/x-shellscript' });

  if (c.engine === 'spark') {
    upload(driverKey(layout), driverBytes(), 'the Spark driver, python/spark/driver.py', { ContentType: 'text/x-python' });
    upload(packageJsonKey(layout), Buffer.byteLength(COMMONJS_PACKAGE), `${COMMONJS_PACKAGE.trim()}: the job script is CommonJS (spark-submit --files gives it to each task)`, { ContentType: 'application/json' });
  }

  const nSplits = splitCount(input.docs, c.split_mb);
  for (let i = 0; i < nSplits; i++) {
    const exact = input.docs.kind === 'exact' ? input.docs.splits[i] : undefined;
    const what = exact
      ? `documents ${exact.first}..${exact.end - 1} as text records, gzip`
      : `documents as text records, gzip (split ${i + 1} of at most ${nSplits}, estimated)`;
    upload(splitKey(layout, i), exact ? exact.bytes : null, what, { ContentType: 'application/gzip' });
  }

  if (input.variants.some((v) => readsDataset(v.plan.jobs, DOCUMENTS_META))) {
    upload(documentsMetaPartKey(layout), input.metaBytes ?? null, "each document's meta as JSON text records, uncompressed (side data)", { ContentType: 'text/plain' });
  }

  const clusterId = mode.kind === 'existing' ? mode.clusterId : CLUSTER_ID;
  input.variants.forEach((v, idx) => {
    // The run's own places (the backend's), so the dry run lists the keys the run will write.
    const { slug, steps } = variantSteps(c, runId, v.position ?? idx + 1, v, prices);
    const spec = specJson(v);
    upload(specKey(layout, slug), Buffer.byteLength(spec), `spec of variant ${v.variant}: ${spec.trim()}`, { ContentType: 'application/json' });
    if (c.engine === 'spark') {
      const plan = emrSparkPlanJson(c, runId, slug, v.plan.jobs, reduceTasks(c, prices));
      upload(sparkPlanKey(layout, slug), Buffer.byteLength(plan), `the Spark driver's plan of ${v.variant}: ${v.plan.jobs.length} jobs (${v.plan.jobs.map((j) => j.name).join(', ')})`, { ContentType: 'application/json' });
    }
    if (mode.kind === 'new' && idx === 0) {
      requests.push({ service: 'emr', operation: 'RunJobFlow', params: runJobFlowInput(c, mode, runId, steps, prices) });
    } else {
      requests.push({ service: 'emr', operation: 'AddJobFlowSteps', params: { JobFlowId: clusterId, Steps: steps } });
    }
    requests.push({
      service: 'emr',
      operation: 'DescribeCluster',
      params: { ClusterId: clusterId },
      when: `every ${c.poll_s} s until the variant's steps end; cost cap checked each time; throttling retried with exponential backoff`,
    });
    requests.push({
      service: 'emr',
      operation: 'ListSteps',
      params: { ClusterId: clusterId, StepIds: steps.map((_, k) => `<step-id-${k + 1}>`) },
      when: `with each DescribeCluster`,
    });
    requests.push({ service: 'emr', operation: 'ListInstances', params: { ClusterId: clusterId }, when: 'after the steps: instance timelines for the cost' });
    const pairsKey = datasetKey(layout, slug, v.plan.output.pairs);
    requests.push({ service: 's3', operation: 'ListObjectsV2', params: { Bucket: bucket, Prefix: pairsKey }, when: 'paginated' });
    requests.push({ service: 's3', operation: 'GetObject', params: { Bucket: bucket, Key: `${pairsKey}part-*` }, when: 'each part file of the pairs dataset' });
    const { bucket: logBucket, prefix: logPrefix } = parseS3Uri(logUri(c));
    if (c.engine === 'spark') {
      requests.push({ service: 's3', operation: 'GetObject', params: { Bucket: bucket, Key: sparkResultKey(layout, slug) }, when: "the driver's result: the counters, or the failing task's last line" });
      return;
    }
    requests.push({
      service: 's3',
      operation: 'GetObject',
      params: { Bucket: logBucket, Key: `${logPrefix}/${clusterId}/steps/<step-id>/syslog.gz` },
      when: 'each step, best effort: counters if EMR has delivered the logs (else "counters unavailable")',
    });
  });
  if (mode.kind === 'new') {
    requests.push({
      service: 'emr',
      operation: 'TerminateJobFlows',
      params: { JobFlowIds: [clusterId] },
      when: 'always: at close, or at once on a failed step, the cost cap, an error or an interrupt',
    });
  } else {
    requests.push({
      service: 'emr',
      operation: 'CancelSteps',
      params: { ClusterId: clusterId, StepIds: ['<our unfinished step ids>'] },
      when: 'only on a failed step, the cost cap, an error or an interrupt (the cluster is yours and keeps running)',
    });
  }

  const rate = configuredRatePerHour(c, prices);
  const estimate = planEstimate(c, {
    variants: input.variants,
    documents: { count: input.docs.count, textBytes: input.textBytes ?? input.docs.recordBytes, exact: input.docs.kind === 'exact' },
    curves: input.curves,
    prices,
    ...(input.spot ? { spot: input.spot } : {}),
  });
  return {
    kind: 'emr-plan',
    runId,
    region: c.region,
    releaseLabel: c.release_label,
    cluster:
      mode.kind === 'new'
        ? { kind: 'new', master: { ...mode.master }, core: { ...mode.core }, ...(mode.task ? { task: { ...mode.task } } : {}), capacity: mode.fleets ? 'instance fleets' : 'instance groups, on demand' }
        : { kind: 'existing', clusterId: mode.clusterId, consoleLink: consoleLink(c.region, mode.clusterId) },
    documents: {
      count: input.docs.count,
      recordBytes: input.docs.recordBytes,
      splits: nSplits,
      splitMb: c.split_mb,
      exact: input.docs.kind === 'exact',
    },
    objects,
    requests,
    cost: {
      priceTableDate: prices.fetchedAt,
      ratePerHourUsd: rate,
      maxCostUsd: c.max_cost_usd,
      minutesUntilCap: rate ? Math.round((c.max_cost_usd / rate) * 600) / 10 : null,
    },
    estimate,
    summary: estimateSummary(estimate),
  };
}
