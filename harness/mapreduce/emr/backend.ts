/**
 * The Amazon EMR backend: stages the job script and the documents to S3, runs each variant's
 * jobs as Hadoop Streaming steps on one cluster (created at the first variant, or the user's
 * `cluster_id`), polls with progress, reads the pairs back, and prices the run from instance
 * timelines and the dated price table.
 *
 * It never leaves anything running that it started: a failed step, the cost cap, an error of
 * ours or an abort all end in TerminateJobFlows (CancelSteps of our steps on a user's cluster),
 * and close() terminates the cluster after the last variant. The cluster also carries an idle
 * auto-termination policy as the safety net for a harness that is killed outright.
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  AddJobFlowStepsCommand,
  CancelStepsCommand,
  DescribeClusterCommand,
  EMRClient,
  ListInstancesCommand,
  ListStepsCommand,
  RunJobFlowCommand,
  TerminateJobFlowsCommand,
  type Cluster,
  type Instance,
  type StepConfig,
  type StepSummary,
} from '@aws-sdk/client-emr';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DOCUMENTS_META, readsDataset, type Counters, type DocumentSet } from '../../../contract/index.ts';
import { InterruptedError, UserError } from '../../errors.ts';
import type { Backend, BackendContext, BackendRunResult, VariantJob } from '../backend.ts';
import { bundleJobScript } from '../streaming/bundle.ts';
import { clusterGroups, clusterMode, clusterNodes, logUri, reduceTasks, type ClusterMode, type EmrBackendConfig } from './config.ts';
import { clusterRatePerHour, groupIntervals, instancesCost, stepCost, type InstanceInterval } from './cost.ts';
import { cpuSecondsOf, mergeJobCounters, parseCountersBlock } from './counters.ts';
import { attachDetails, EmrRunError, isAbort } from './errors.ts';
import { bootstrapKey, codeKey, consoleLink, datasetKey, driverKey, packageJsonKey, sparkPlanKey, sparkResultKey, specKey, type RunLayout } from './layout.ts';
import { emrSparkPlanJson } from './spark-step.ts';
import { DRIVER } from '../spark/runtime.ts';
import { COMMONJS_PACKAGE } from '../spark/submit.ts';
import { OutputCollector, outputDatasets } from '../outputs.ts';
import type { PlanOutputs } from '../outputs.ts';
import { forEachTextRecord, getObjectBytes, listKeys, listPartKeys, maybeGunzip } from './output.ts';
import { bootstrapScript, estimateSummary, layoutOf, planEstimate, runJobFlowInput, specJson, variantSteps, type EmrPlanInput } from './plan.ts';
import type { EmrEstimate } from './estimate.ts';
import { EC2Client } from '@aws-sdk/client-ec2';
import { fetchSpotPrices } from './spot-prices.ts';
import { checkBucket, checkCredentials, checkExistingCluster } from './preflight.ts';
import { defaultPriceTable, findPrice, hourlyRate, type PriceTable } from './prices.ts';
import { DEFAULT_BACKOFF, withBackoff, type Backoff, type Sleep } from './retry.ts';
import { parseS3Uri } from './s3uri.ts';
import { describeDocuments } from './splits.ts';
import { stageDocumentMeta, stageDocuments, uploadFile, uploadObject } from './staging.ts';
import { utf8Bytes } from '../../corpus/spilled-texts.ts';

export interface EmrDeps {
  readonly emr?: EMRClient;
  /** asked for the spot price history of the estimate */
  readonly ec2?: EC2Client;
  readonly s3?: S3Client;
  /** Milliseconds since the epoch; the clock the cost cap is checked against. */
  readonly now?: () => number;
  /** Waits between polls and retries; rejects when the signal aborts. */
  readonly sleep?: Sleep;
  readonly runId?: string;
  readonly prices?: PriceTable;
  /** Builds the one self-contained job script into `outDir` and returns its path. */
  readonly bundle?: (outDir: string) => Promise<string>;
  readonly backoff?: Backoff;
  /** Lines the user must see even without a TTY (a cluster that may still be running). */
  readonly warn?: (line: string) => void;
  /**
   * `bench run --resume`: a variant's leading steps whose output is complete in S3 (Hadoop's
   * `_SUCCESS`) under the same spec are not run again. Otherwise a variant's old outputs under the
   * run's prefix are deleted first (Hadoop refuses to write into an existing output folder).
   */
  readonly resume?: boolean;
  /** Every variant the run will submit, for the run's estimate before staging (default: each variant alone). */
  readonly variants?: readonly Pick<VariantJob, 'variant' | 'algorithm' | 'params'>[];
  /** The cost curves of the estimate (cost-curves.ts), or why there are none. */
  readonly curves?: EmrPlanInput['curves'];
}

const TERMINAL_STEP = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED']);
const DEAD_CLUSTER = new Set(['TERMINATING', 'TERMINATED', 'TERMINATED_WITH_ERRORS']);

interface ClusterRun {
  readonly id: string;
  /** Ours to terminate; false for the user's `cluster_id`. */
  readonly ours: boolean;
  readonly requestedMs: number;
  createdMs?: number;
  readyMs?: number;
  releaseLabel: string;
  terminated: boolean;
  /** Cluster cost already attributed to earlier variants (cluster created by us). */
  attributedUsd: number;
  /** Hourly rate of a user's cluster, from its running instances. */
  existingRatePerHour?: number;
  existingInstances?: { type: string; count: number }[];
  /** Cost of our finished steps on a user's cluster. */
  existingUsd: number;
  /** Variants finished on this cluster (the first one is charged the start-up). */
  variantsDone: number;
}

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal ? { signal } : {});
};

/** The streaming backend's bundle, built once into <repo>/dist and reused while fresh. */
async function defaultBundle(_outDir: string): Promise<string> {
  return bundleJobScript();
}

function sameDocuments(a: DocumentSet, b: DocumentSet): boolean {
  return a === b || (a.ids.length === b.ids.length && a.ids.every((id, i) => id === b.ids[i] && a.texts.at(i) === b.texts.at(i)));
}

function ms(d: Date | undefined): number | undefined {
  return d ? d.getTime() : undefined;
}

function runIdFrom(nowMs: number): string {
  const iso = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `ndd-${iso}-${Math.random().toString(36).slice(2, 6)}`;
}

export function createEmrBackend(config: EmrBackendConfig, deps: EmrDeps = {}): Backend {
  return new EmrBackend(config, deps);
}

class EmrBackend implements Backend {
  readonly kind = 'emr';
  private readonly emr: EMRClient;
  private readonly ec2: EC2Client;
  private readonly s3: S3Client;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly prices: PriceTable;
  private readonly runId: string;
  private readonly layout: RunLayout;
  private readonly mode: ClusterMode;
  private readonly backoff: Backoff;
  private readonly warn: (line: string) => void;
  private readonly bundle: (outDir: string) => Promise<string>;
  private readonly resume: boolean;
  private readonly curves: EmrPlanInput['curves'];
  private plannedVariants: readonly Pick<VariantJob, 'variant' | 'algorithm' | 'params'>[] | undefined;
  /** made when the documents are first staged; recorded beside each variant's actual cost */
  private estimate?: EmrEstimate | { readonly unavailable: string };
  private prepared?: Promise<void>;
  private stagedDocs?: DocumentSet;
  /** the documents-meta upload, made once, for the first variant whose jobs read it */
  private stagedMeta?: Promise<number>;
  private cluster?: ClusterRun;
  private variants = 0;

  constructor(
    private readonly config: EmrBackendConfig,
    deps: EmrDeps,
  ) {
    this.emr = deps.emr ?? new EMRClient({ region: config.region });
    this.ec2 = deps.ec2 ?? new EC2Client({ region: config.region });
    this.s3 = deps.s3 ?? new S3Client({ region: config.region });
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? defaultSleep;
    this.prices = deps.prices ?? defaultPriceTable();
    this.runId = deps.runId ?? runIdFrom(this.now());
    this.layout = layoutOf(config, this.runId);
    this.mode = clusterMode(config);
    this.backoff = deps.backoff ?? DEFAULT_BACKOFF;
    this.warn = deps.warn ?? ((line) => process.stderr.write(`${line}\n`));
    this.bundle = deps.bundle ?? defaultBundle;
    this.resume = deps.resume === true;
    this.curves = deps.curves;
    this.plannedVariants = deps.variants;
  }

  async run(job: VariantJob, ctx: BackendContext): Promise<BackendRunResult> {
    this.variants++;
    const index = job.position ?? this.variants;
    const ourSteps: string[] = [];
    try {
      if (ctx.signal.aborted) throw new InterruptedError('interrupted before the EMR run started');
      this.plannedVariants ??= [job];
      await this.prepare(ctx);
      if (readsDataset(job.plan.jobs, DOCUMENTS_META)) {
        this.stagedMeta ??= stageDocumentMeta(this.s3, this.layout, ctx.docs, ctx.signal);
        await this.stagedMeta;
      }
      const { slug, steps } = variantSteps(this.config, this.runId, index, job, this.prices);
      const spec = specJson(job);
      const finished = this.resume ? await this.finishedSteps(slug, spec, job, ctx.signal) : 0;
      // engine spark: the variant's one step is reused only when all its jobs finished (the driver runs them all again otherwise).
      const reused = this.config.engine === 'spark' ? (finished === job.plan.jobs.length ? 1 : 0) : finished;
      await this.clearOutputs(slug, job.plan.jobs.slice(this.config.engine === 'spark' ? (reused === 1 ? job.plan.jobs.length : 0) : reused), ctx.signal);
      await uploadObject(this.s3, this.layout.bucket, specKey(this.layout, slug), spec, 'application/json', ctx.signal);
      if (this.config.engine === 'spark') {
        const plan = emrSparkPlanJson(this.config, this.runId, slug, job.plan.jobs, reduceTasks(this.config, this.prices));
        await uploadObject(this.s3, this.layout.bucket, sparkPlanKey(this.layout, slug), plan, 'application/json', ctx.signal);
      }
      if (reused === steps.length) return await this.reusedResult(job, slug, ctx);
      if (ctx.signal.aborted) throw new InterruptedError('interrupted before the EMR steps were submitted');
      ourSteps.push(...(await this.submit(steps.slice(reused), ctx)));
      const done = await this.poll(ourSteps, ctx);
      return await this.finish(job, slug, done, ctx, reused);
    } catch (e) {
      throw await this.fail(e, ourSteps, ctx.signal);
    }
  }

  // ---- resuming ------------------------------------------------------------------------------

  private list(prefix: string, signal: AbortSignal): Promise<string[]> {
    return listKeys((cmd: ListObjectsV2Command) => this.retry(() => this.s3.send(cmd), signal), this.layout.bucket, prefix);
  }

  /** How many leading steps of the variant wrote their output completely under this very spec. */
  private async finishedSteps(slug: string, spec: string, job: VariantJob, signal: AbortSignal): Promise<number> {
    let stored: string;
    try {
      stored = maybeGunzip(await getObjectBytes((cmd: GetObjectCommand) => this.retry(() => this.s3.send(cmd), signal), this.layout.bucket, specKey(this.layout, slug))).toString('utf8');
    } catch {
      return 0;
    }
    if (stored !== spec) return 0;
    let k = 0;
    for (const j of job.plan.jobs) {
      const keys = await this.list(datasetKey(this.layout, slug, j.output), signal);
      if (!keys.some((key) => key.endsWith('/_SUCCESS'))) break;
      k++;
    }
    return k;
  }

  /** Deletes what an earlier run left under the outputs these jobs are about to write. */
  private async clearOutputs(slug: string, jobs: readonly VariantJob['plan']['jobs'][number][], signal: AbortSignal): Promise<void> {
    for (const j of jobs) {
      const keys = await this.list(datasetKey(this.layout, slug, j.output), signal);
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000).map((Key) => ({ Key }));
        await this.retry(() => this.s3.send(new DeleteObjectsCommand({ Bucket: this.layout.bucket, Delete: { Objects: batch, Quiet: true } })), signal);
      }
    }
  }

  /** Every step's output is already in S3: the variant costs nothing now, and its counters are in an earlier cluster's logs. */
  private async reusedResult(job: VariantJob, slug: string, ctx: BackendContext): Promise<BackendRunResult> {
    const { outputs, parts } = await this.fetchOutputs(job, slug, ctx);
    return {
      outputs,
      counters: {},
      runtimeS: 0,
      cpuS: 0,
      costUsd: 0,
      extra: {
        backend: 'emr',
        reusedSteps: job.plan.jobs.length,
        s3: `s3://${this.layout.bucket}/${this.layout.runKey}/`,
        outputParts: parts,
        counters: 'unavailable: every step was reused from an earlier run, whose counters are in that cluster’s logs',
      },
    };
  }

  async close(): Promise<void> {
    const c = this.cluster;
    if (!c || !c.ours || c.terminated) return;
    const ok = await this.terminate(c);
    if (!ok) {
      throw new EmrRunError(
        `could not terminate EMR cluster ${c.id}: terminate it yourself (\`aws emr terminate-clusters --region ${this.config.region} --cluster-ids ${c.id}\`, ${consoleLink(this.config.region, c.id)})`,
      );
    }
  }

  // ---- staging -------------------------------------------------------------------------

  private prepare(ctx: BackendContext): Promise<void> {
    if (this.stagedDocs && !sameDocuments(this.stagedDocs, ctx.docs)) {
      throw new Error('EMR backend: every variant of a run must use the same document set (it is staged once)');
    }
    this.prepared ??= this.stage(ctx).catch((e: unknown) => {
      this.prepared = undefined;
      throw e;
    });
    return this.prepared;
  }

  private async stage(ctx: BackendContext): Promise<void> {
    // The run's first line: what it will cost, before anything is staged or started.
    const spot =
      this.curves && this.mode.kind === 'new'
        ? await fetchSpotPrices(this.ec2, { region: this.config.region, types: clusterNodes(this.mode).map((n) => n.type), now: new Date(this.now()), note: this.warn })
        : undefined;
    this.estimate = planEstimate(this.config, {
      ...(spot ? { spot } : {}),
      variants: this.plannedVariants ?? [],
      documents: { count: ctx.docs.texts.length, textBytes: utf8Bytes(ctx.docs.texts), exact: true },
      curves: this.curves,
      prices: this.prices,
    });
    if (this.curves) for (const line of estimateSummary(this.estimate).slice(0, 2)) this.warn(line);
    ctx.progress('emr: checking credentials and bucket');
    await checkCredentials(this.s3);
    await this.retry(() => checkBucket(this.s3, this.layout.bucket), ctx.signal);
    if (this.mode.kind === 'existing' && !this.cluster) {
      const found = await checkExistingCluster(this.emr, this.mode.clusterId, this.config.region, this.prices);
      const counts = new Map<string, number>();
      for (const i of found.instances) counts.set(i.InstanceType ?? '?', (counts.get(i.InstanceType ?? '?') ?? 0) + 1);
      const instances = [...counts].map(([type, count]) => ({ type, count }));
      this.cluster = {
        id: this.mode.clusterId,
        ours: false,
        requestedMs: this.now(),
        releaseLabel: found.releaseLabel ?? 'unknown',
        terminated: false,
        attributedUsd: 0,
        existingRatePerHour: instances.reduce((r, g) => r + g.count * this.rateOf(g.type), 0),
        existingInstances: instances,
        existingUsd: 0,
        variantsDone: 0,
      };
    }
    ctx.progress('emr: staging the job script');
    const script = await this.bundle(ctx.workDir);
    await uploadFile(this.s3, this.layout.bucket, codeKey(this.layout), script, 'text/javascript', ctx.signal);
    if (this.config.engine === 'spark') {
      await uploadFile(this.s3, this.layout.bucket, driverKey(this.layout), DRIVER, 'text/x-python', ctx.signal);
      await uploadObject(this.s3, this.layout.bucket, packageJsonKey(this.layout), COMMONJS_PACKAGE, 'application/json', ctx.signal);
    }
    const boot = bootstrapScript(this.config);
    if (boot !== undefined) {
      await uploadObject(this.s3, this.layout.bucket, bootstrapKey(this.layout), boot, 'text/x-shellscript', ctx.signal);
    }
    const docs = describeDocuments(ctx.docs, this.config.split_mb);
    if (docs.kind !== 'exact') throw new Error('unreachable: documents described without splits');
    await stageDocuments(this.s3, this.layout, ctx.docs, docs.splits, (d, t) => ctx.progress('emr: staging documents', d, t), ctx.signal);
    this.stagedDocs = ctx.docs;
  }

  // ---- submitting and polling ------------------------------------------------------------

  private async submit(steps: StepConfig[], ctx: BackendContext): Promise<string[]> {
    const c = this.cluster;
    if (c && !c.terminated) {
      const r = await this.retry(() => this.emr.send(new AddJobFlowStepsCommand({ JobFlowId: c.id, Steps: steps })), ctx.signal);
      if (!r.StepIds || r.StepIds.length !== steps.length) throw new Error(`AddJobFlowSteps on ${c.id} returned ${r.StepIds?.length ?? 0} step ids for ${steps.length} steps`);
      return r.StepIds;
    }
    if (this.mode.kind !== 'new') throw new Error('unreachable: existing cluster not prepared');
    ctx.progress('emr: creating the cluster');
    const requestedMs = this.now();
    // Not abortable: an aborted RunJobFlow may still create a cluster whose id we would never learn.
    const r = await this.retry(() => this.emr.send(new RunJobFlowCommand(runJobFlowInput(this.config, this.mode as Extract<ClusterMode, { kind: 'new' }>, this.runId, steps, this.prices))));
    if (!r.JobFlowId) throw new Error('RunJobFlow returned no cluster id');
    this.cluster = {
      id: r.JobFlowId,
      ours: true,
      requestedMs,
      releaseLabel: this.config.release_label,
      terminated: false,
      attributedUsd: 0,
      existingUsd: 0,
      variantsDone: 0,
    };
    return this.stepIdsByName(r.JobFlowId, steps.map((s) => s.Name ?? ''));
  }

  /** RunJobFlow returns no step ids: find ours by their unique names. */
  private async stepIdsByName(clusterId: string, names: string[]): Promise<string[]> {
    const byName = new Map<string, string>();
    let marker: string | undefined;
    do {
      const page = await this.retry(() => this.emr.send(new ListStepsCommand({ ClusterId: clusterId, Marker: marker })));
      for (const s of page.Steps ?? []) if (s.Name && s.Id) byName.set(s.Name, s.Id);
      marker = page.Marker;
    } while (marker);
    return names.map((n) => {
      const id = byName.get(n);
      if (!id) throw new Error(`step ${n} not found on cluster ${clusterId}`);
      return id;
    });
  }

  private async listSteps(clusterId: string, ids: readonly string[], signal?: AbortSignal): Promise<StepSummary[]> {
    const out: StepSummary[] = [];
    for (let k = 0; k < ids.length; k += 10) {
      const chunk = ids.slice(k, k + 10);
      let marker: string | undefined;
      do {
        const page = await this.retry(() => this.emr.send(new ListStepsCommand({ ClusterId: clusterId, StepIds: chunk, Marker: marker })), signal);
        out.push(...(page.Steps ?? []));
        marker = page.Marker;
      } while (marker);
    }
    const byId = new Map(out.map((s) => [s.Id, s]));
    return ids.map((id) => byId.get(id) ?? { Id: id, Status: { State: 'PENDING' } });
  }

  private async poll(stepIds: readonly string[], ctx: BackendContext): Promise<StepSummary[]> {
    const c = this.cluster;
    if (!c) throw new Error('unreachable: no cluster');
    for (;;) {
      if (ctx.signal.aborted) throw new InterruptedError('interrupted');
      const cluster = (await this.retry(() => this.emr.send(new DescribeClusterCommand({ ClusterId: c.id })), ctx.signal)).Cluster;
      this.noteTimeline(c, cluster);
      const state = cluster?.Status?.State ?? 'UNKNOWN';
      if (DEAD_CLUSTER.has(state)) {
        if (state !== 'TERMINATING') c.terminated = true;
        const why = cluster?.Status?.StateChangeReason;
        throw new EmrRunError(`EMR cluster ${c.id} is ${state}${why?.Code ? `: ${why.Code}` : ''}${why?.Message ? `: ${why.Message}` : ''}`);
      }
      const steps = await this.listSteps(c.id, stepIds, ctx.signal);
      const failed = steps.find((s) => s.Status?.State && s.Status.State !== 'COMPLETED' && TERMINAL_STEP.has(s.Status.State));
      if (failed) {
        const f = failed.Status?.FailureDetails;
        throw new EmrRunError(
          `EMR step ${failed.Name ?? failed.Id} ${failed.Status?.State}` +
            `${f?.Reason ? `: ${f.Reason}` : ''}${f?.Message ? `: ${f.Message}` : ''}${f?.LogFile ? ` (log: ${f.LogFile})` : ''}`,
        );
      }
      const done = steps.filter((s) => s.Status?.State === 'COMPLETED').length;
      const current = steps.find((s) => s.Status?.State !== 'COMPLETED');
      ctx.progress(`emr ${c.id} ${state}${current ? `: ${current.Name?.split(' ').pop() ?? ''} ${current.Status?.State ?? ''}` : ''}`, done, steps.length);
      const spent = this.costSoFar(c, steps);
      if (spent >= this.config.max_cost_usd) {
        throw new EmrRunError(`EMR cost cap reached: $${spent.toFixed(2)} spent >= max_cost_usd $${this.config.max_cost_usd}`);
      }
      if (done === steps.length) return steps;
      await this.sleep(this.config.poll_s * 1000, ctx.signal);
    }
  }

  private noteTimeline(c: ClusterRun, cluster: Cluster | undefined): void {
    const t = cluster?.Status?.Timeline;
    c.createdMs ??= ms(t?.CreationDateTime);
    c.readyMs ??= ms(t?.ReadyDateTime);
    if (cluster?.ReleaseLabel) c.releaseLabel = cluster.ReleaseLabel;
  }

  private rateOf(type: string): number {
    const p = findPrice(this.prices, this.config.region, type);
    if (!p) throw new UserError(`no price for ${type} in ${this.config.region} in the price table dated ${this.prices.fetchedAt}`);
    return hourlyRate(p);
  }

  /** Cost so far for the cap: the configured instances since the cluster was created, or our steps on a user's cluster. */
  private costSoFar(c: ClusterRun, steps: readonly StepSummary[]): number {
    const now = this.now();
    if (!c.ours) {
      let usd = c.existingUsd;
      for (const s of steps) {
        const start = ms(s.Status?.Timeline?.StartDateTime);
        if (start !== undefined) usd += stepCost(c.existingRatePerHour ?? 0, start, ms(s.Status?.Timeline?.EndDateTime) ?? now);
      }
      return usd;
    }
    if (this.mode.kind !== 'new') return 0;
    const start = c.createdMs ?? c.requestedMs;
    return instancesCost(groupIntervals(clusterGroups(this.mode), start, now), (t) => this.rateOf(t), now);
  }

  // ---- results -------------------------------------------------------------------------------

  private async instanceIntervals(c: ClusterRun): Promise<{ intervals: InstanceInterval[]; source: string }> {
    const now = this.now();
    const instances: Instance[] = [];
    try {
      let marker: string | undefined;
      do {
        const page = await this.retry(() => this.emr.send(new ListInstancesCommand({ ClusterId: c.id, Marker: marker })));
        instances.push(...(page.Instances ?? []));
        marker = page.Marker;
      } while (marker);
    } catch {
      // The configured groups below are the fallback.
    }
    const intervals: InstanceInterval[] = [];
    for (const i of instances) {
      const start = ms(i.Status?.Timeline?.CreationDateTime);
      if (!i.InstanceType || start === undefined) continue;
      intervals.push({ instanceType: i.InstanceType, startMs: start, endMs: ms(i.Status?.Timeline?.EndDateTime) ?? now });
    }
    if (intervals.length > 0 || this.mode.kind !== 'new') return { intervals, source: 'ListInstances timelines' };
    const start = c.createdMs ?? c.requestedMs;
    return { intervals: groupIntervals(clusterGroups(this.mode), start, now), source: 'configured instance groups since cluster creation' };
  }

  private async fetchOutputs(job: VariantJob, slug: string, ctx: BackendContext): Promise<{ outputs: PlanOutputs; parts: number }> {
    ctx.progress('emr: fetching the output');
    const collector = new OutputCollector(job.plan.output, ctx.docs.texts.length);
    let parts = 0;
    for (const dataset of outputDatasets(job.plan.output)) {
      const prefix = datasetKey(this.layout, slug, dataset);
      const keys = await listPartKeys((cmd: ListObjectsV2Command) => this.retry(() => this.s3.send(cmd), ctx.signal), this.layout.bucket, prefix);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const bytes = await getObjectBytes((cmd: GetObjectCommand) => this.retry(() => this.s3.send(cmd), ctx.signal), this.layout.bucket, key);
        forEachTextRecord(maybeGunzip(bytes).toString('utf8'), (k, v, line) => collector.add(dataset, k, v, () => `s3://${this.layout.bucket}/${key}: line ${line}`));
        ctx.progress(`emr: fetching ${dataset}`, i + 1, keys.length);
      }
      parts += keys.length;
    }
    return { outputs: collector.result(), parts };
  }

  /** `steps` are the ones submitted: the variant's jobs from `offset` on (the earlier ones were reused). */
  private async finish(job: VariantJob, slug: string, steps: readonly StepSummary[], ctx: BackendContext, offset: number): Promise<BackendRunResult> {
    const c = this.cluster;
    if (!c) throw new Error('unreachable: no cluster');
    const rate = (t: string): number => this.rateOf(t);
    const lastEnd = Math.max(...steps.map((s) => ms(s.Status?.Timeline?.EndDateTime) ?? this.now()));

    let variantUsd: number;
    let ratePerHour: number;
    let costBasis: string;
    let instances: { type: string; count: number }[];
    if (c.ours) {
      const { intervals, source } = await this.instanceIntervals(c);
      const toEnd = instancesCost(intervals, rate, lastEnd);
      variantUsd = toEnd - c.attributedUsd;
      c.attributedUsd = toEnd;
      const firstStart = ms(steps[0]?.Status?.Timeline?.StartDateTime) ?? lastEnd;
      ratePerHour = clusterRatePerHour(intervals, rate, firstStart) || clusterRatePerHour(intervals, rate, lastEnd - 1);
      costBasis = `${source}; per-second billing with a 60 s minimum per instance; this variant is charged the cluster time since the previous one ended${c.variantsDone === 0 ? ' (including start-up)' : ''}${this.mode.kind === 'new' && this.mode.fleets ? '; spot instances at the on-demand rate (an upper bound: the price they were bought at is on the bill, not in the API)' : ''}`;
      instances = this.mode.kind === 'new' ? clusterGroups(this.mode).map((g) => ({ type: g.type, count: g.count })) : [];
    } else {
      ratePerHour = c.existingRatePerHour ?? 0;
      variantUsd = 0;
      costBasis = 'your cluster: each step charged its own runtime at the hourly rate of the cluster’s running instances';
      instances = c.existingInstances ?? [];
    }

    const stepRows = steps.map((s, k) => {
      const t = s.Status?.Timeline;
      const created = ms(t?.CreationDateTime);
      const start = ms(t?.StartDateTime);
      const end = ms(t?.EndDateTime);
      const usd = start !== undefined && end !== undefined ? stepCost(ratePerHour, start, end) : 0;
      return {
        job: this.config.engine === 'spark' ? `spark-submit: ${job.plan.jobs.map((j) => j.name).join(', ')}` : (job.plan.jobs[offset + k]?.name ?? s.Name ?? ''),
        stepId: s.Id ?? '',
        state: s.Status?.State ?? '',
        queueS: created !== undefined && start !== undefined ? (start - created) / 1000 : null,
        runtimeS: start !== undefined && end !== undefined ? (end - start) / 1000 : null,
        costUsd: usd,
      };
    });
    if (!c.ours) {
      variantUsd = stepRows.reduce((n, r) => n + r.costUsd, 0);
      c.existingUsd += variantUsd;
    }
    const runtimeS = stepRows.reduce((n, r) => n + (r.runtimeS ?? 0), 0);
    c.variantsDone++;

    const { outputs, parts: outputParts } = await this.fetchOutputs(job, slug, ctx);
    const { counters, found } =
      this.config.engine === 'spark' ? await this.sparkCounters(slug, ctx.signal) : await this.fetchCounters(c.id, steps, job.plan.jobs.slice(offset));
    const cpuS = cpuSecondsOf(counters);
    const extra: Record<string, unknown> = {
      backend: 'emr',
      clusterId: c.id,
      consoleLink: consoleLink(this.config.region, c.id),
      clusterOwner: c.ours ? 'ndd-bench (terminated at close)' : 'you (not terminated)',
      releaseLabel: c.releaseLabel,
      region: this.config.region,
      instances,
      priceTableDate: this.prices.fetchedAt,
      priceTableSource: this.prices.source.method,
      ratePerHourUsd: ratePerHour,
      costBasis,
      startupS: c.readyMs !== undefined && c.createdMs !== undefined ? (c.readyMs - c.createdMs) / 1000 : null,
      clusterCreated: c.createdMs !== undefined ? new Date(c.createdMs).toISOString() : null,
      clusterReady: c.readyMs !== undefined ? new Date(c.readyMs).toISOString() : null,
      steps: stepRows,
      s3: `s3://${this.layout.bucket}/${this.layout.runKey}/`,
      outputParts,
      ...(offset > 0 ? { reusedSteps: offset } : {}),
      estimate: this.estimateBeside(job.variant, { cpuS: found > 0 ? cpuS : null, runtimeS, costUsd: variantUsd, partial: offset > 0 }),
      counters: this.config.engine === 'spark' ? (found > 0 ? "from the Spark driver's result.json" : "unavailable: the Spark driver wrote no result.json") : found === steps.length ? 'from the step logs' : found > 0 ? `from ${found} of ${steps.length} step logs` : 'counters unavailable (step logs not yet delivered to S3; EMR pushes them every few minutes)',
    };
    return { outputs, counters, runtimeS, cpuS, costUsd: variantUsd, extra };
  }

  /** The variant's estimate beside what it took (run.json's `backend_extra.estimate`). */
  private estimateBeside(variant: string, actual: { cpuS: number | null; runtimeS: number; costUsd: number; partial: boolean }): Record<string, unknown> {
    const e = this.estimate;
    if (!e || 'unavailable' in e) return { unavailable: e?.unavailable ?? 'not made' };
    const v = e.variants.find((x) => x.variant === variant);
    if (!v?.cpuS || !v.hours) return { unavailable: v?.missing ?? `no estimate for ${variant}` };
    const h = v.hours;
    const usd = (rate: number) => ({ value: h.value * rate, low: h.low * rate, high: h.high * rate });
    return {
      estimated: { cpu_s: v.cpuS, step_hours: h, usd_on_demand: usd(e.onDemand.usdPerHour), usd_spot: usd(e.spot.usdPerHour), curve: v.curve },
      actual: {
        // CPU from the steps' counters (null when their logs had not reached S3)
        cpu_s: actual.cpuS,
        step_hours: actual.runtimeS / 3600,
        usd: actual.costUsd,
        ...(actual.partial ? { note: 'earlier steps were reused from a previous run and are not in these figures' } : {}),
      },
      run: { hours: e.hours, usd_on_demand: e.onDemand.usd, usd_spot: e.spot.usd, vcpus: e.vcpus, documents: e.documents, curves: e.curvesFile },
    };
  }

  /** engine spark: the counters the driver summed from its tasks (driver.py), from its result.json beside the plan. */
  private async sparkCounters(slug: string, signal: AbortSignal): Promise<{ counters: Counters; found: number }> {
    try {
      const bytes = await getObjectBytes((cmd: GetObjectCommand) => this.retry(() => this.s3.send(cmd), signal), this.layout.bucket, sparkResultKey(this.layout, slug));
      const result = JSON.parse(maybeGunzip(bytes).toString('utf8')) as { ok?: boolean; counters?: Counters };
      return result.ok && result.counters ? { counters: result.counters, found: 1 } : { counters: {}, found: 0 };
    } catch {
      return { counters: {}, found: 0 };
    }
  }

  /** Best effort, never waited for: logs reach S3 minutes after a step ends. */
  private async fetchCounters(clusterId: string, steps: readonly StepSummary[], jobs: VariantJob['plan']['jobs']): Promise<{ counters: Counters; found: number }> {
    const { bucket, prefix } = parseS3Uri(logUri(this.config));
    const counters: Counters = {};
    let found = 0;
    for (let k = 0; k < steps.length; k++) {
      const stepId = steps[k]?.Id;
      if (!stepId) continue;
      for (const file of ['syslog.gz', 'stderr.gz']) {
        try {
          const key = [prefix, clusterId, 'steps', stepId, file].filter((p) => p !== '').join('/');
          const bytes = await getObjectBytes((cmd: GetObjectCommand) => this.s3.send(cmd), bucket, key);
          const block = parseCountersBlock(maybeGunzip(bytes).toString('utf8'));
          if (block) {
            mergeJobCounters(counters, jobs[k]?.name ?? stepId, block);
            found++;
            break;
          }
        } catch {
          // Not delivered yet, or not readable: reported as unavailable.
        }
      }
    }
    return { counters, found };
  }

  // ---- failure -----------------------------------------------------------------------------

  private async fail(e: unknown, ourSteps: readonly string[], signal: AbortSignal): Promise<unknown> {
    const c = this.cluster;
    const aborted = isAbort(e, signal);
    if (!c) return aborted && !(e instanceof InterruptedError) ? new InterruptedError('interrupted', { cause: e }) : e;
    let cleanup: string;
    if (c.ours) {
      const ok = c.terminated || (await this.terminate(c));
      cleanup = ok
        ? `cluster ${c.id} terminated`
        : `cluster ${c.id} could NOT be terminated: run \`aws emr terminate-clusters --region ${this.config.region} --cluster-ids ${c.id}\``;
    } else {
      const ok = await this.cancel(c, ourSteps);
      cleanup = ok ? `our steps on your cluster ${c.id} cancelled` : `our steps on your cluster ${c.id} could NOT be cancelled`;
    }
    const details = {
      clusterId: c.id,
      consoleLink: consoleLink(this.config.region, c.id),
      terminated: c.ours ? c.terminated : false,
      releaseLabel: c.releaseLabel,
      region: this.config.region,
    };
    const link = consoleLink(this.config.region, c.id);
    let out: unknown;
    if (aborted) out = new InterruptedError(`interrupted: ${cleanup} (${link})`, { cause: e });
    else if (e instanceof UserError) out = new EmrRunError(`${e.message.split('\n')[0]}; ${cleanup} (${link})`, { cause: e });
    else {
      this.warn(`ndd-bench: EMR run failed: ${cleanup} (${link})`);
      out = e;
    }
    return attachDetails(out, details);
  }

  /** TerminateJobFlows with retries; never aborted, since a Ctrl-C is exactly when it must run. */
  private async terminate(c: ClusterRun): Promise<boolean> {
    try {
      await this.retry(() => this.emr.send(new TerminateJobFlowsCommand({ JobFlowIds: [c.id] })));
      c.terminated = true;
      return true;
    } catch (e) {
      this.warn(`ndd-bench: TerminateJobFlows ${c.id} failed: ${(e as Error).message}; ${consoleLink(this.config.region, c.id)}`);
      return false;
    }
  }

  private async cancel(c: ClusterRun, stepIds: readonly string[]): Promise<boolean> {
    if (stepIds.length === 0) return true;
    try {
      await this.retry(() => this.emr.send(new CancelStepsCommand({ ClusterId: c.id, StepIds: [...stepIds], StepCancellationOption: 'SEND_INTERRUPT' })));
      return true;
    } catch (e) {
      this.warn(`ndd-bench: CancelSteps on ${c.id} failed: ${(e as Error).message}`);
      return false;
    }
  }

  private retry<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return withBackoff(fn, {
      backoff: this.backoff,
      sleep: this.sleep,
      ...(signal ? { signal } : {}),
      onRetry: (e, d) => this.warn(`ndd-bench: AWS ${(e as { name?: string }).name ?? 'error'}, retrying in ${d / 1000} s`),
    });
  }
}
