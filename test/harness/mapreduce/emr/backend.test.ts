/**
 * The EMR backend's state machine against aws-sdk-client-mock, with a simulated cluster whose
 * clock is the fake `now`/`sleep`: the cluster is ready 300 s after RunJobFlow and each step
 * runs 300 s, one after the other. Expected costs are computed by hand from the price table
 * (m5.xlarge $0.192 + $0.048 = $0.24 per hour).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  AddJobFlowStepsCommand, CancelStepsCommand, DescribeClusterCommand, EMRClient, ListInstancesCommand,
  ListStepsCommand, RunJobFlowCommand, TerminateJobFlowsCommand, type StepConfig, type StepSummary,
} from '@aws-sdk/client-emr';
import { DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { DescribeSpotPriceHistoryCommand, EC2Client } from '@aws-sdk/client-ec2';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Plan } from '../../../../contract/index.ts';
import { InterruptedError, UserError } from '../../../../harness/errors.ts';
import type { BackendContext, VariantJob } from '../../../../harness/mapreduce/backend.ts';
import { createEmrBackend } from '../../../../harness/mapreduce/emr/backend.ts';
import { parseEmrBackend } from '../../../../harness/mapreduce/emr/config.ts';
import { emrFailureDetails, EmrRunError } from '../../../../harness/mapreduce/emr/errors.ts';
import type { CostCurves } from '../../../../harness/mapreduce/emr/cost-curves.ts';

const S = 1000;
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const creds = { accessKeyId: 'test', secretAccessKey: 'test' };

const noop = () => ({ map() {}, reduce() {} });
const plan: Plan = {
  jobs: [
    { name: 'mr1-shingle-pairs', description: '', inputs: ['documents'], output: 'shingles', mapper: noop, reducer: noop },
    { name: 'mr2-pair-scores', description: '', inputs: ['shingles'], output: 'pairs', mapper: noop, combiner: noop, reducer: noop },
  ],
  output: { pairs: 'pairs', score: { kind: 'resemblance', floor: 0.1 }, decisions: { kind: 'score-at-threshold' } },
};
const job = (variant = 'broder/sct=70'): VariantJob => ({ variant, algorithm: 'broder', params: { sct: 70 }, minScore: 0.1, seed: 0, plan });

interface Sim {
  now: number;
  sleeps: number[];
  terminatedAt?: number;
  failStep?: number;
  existing?: boolean;
  throttleDescribe: number;
  logs?: Record<string, string>;
  abortAt?: { at: number; ctl: AbortController };
  /** objects written with PutObject (spec.json), served by GetObject */
  stored: Map<string, string>;
  /** the datasets whose listing has Hadoop's _SUCCESS (default: every one) */
  complete?: readonly string[];
  resume?: boolean;
  deleted: string[];
  curves?: { curves: CostCurves; file: string };
}

function setup(cfg: Record<string, unknown> = {}, sim: Partial<Sim> = {}) {
  const s: Sim = { now: T0, sleeps: [], throttleDescribe: 0, stored: new Map(), deleted: [], ...sim };
  const emr = new EMRClient({ region: 'us-east-1', credentials: creds });
  const s3 = new S3Client({ region: 'us-east-1', credentials: creds });
  const emrMock = mockClient(emr);
  // the spot price history of the estimate: m5.xlarge in three zones, the latest of each
  const ec2 = new EC2Client({ region: 'us-east-1', credentials: creds });
  const ec2Mock = mockClient(ec2);
  ec2Mock.on(DescribeSpotPriceHistoryCommand).resolves({
    SpotPriceHistory: [
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'us-east-1a', SpotPrice: '0.0700', Timestamp: new Date(T0 - 60_000) },
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'us-east-1b', SpotPrice: '0.0900', Timestamp: new Date(T0 - 60_000) },
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'us-east-1c', SpotPrice: '0.0800', Timestamp: new Date(T0 - 60_000) },
    ],
  });
  const s3Mock = mockClient(s3);
  let created: number | undefined;
  let stepNames: string[] = [];
  let stepsAt = 0;

  const stepState = (k: number): StepSummary => {
    const start = stepsAt + 300 * S * k;
    const end = start + 300 * S;
    const failed = s.failStep === k && s.now >= end;
    const state = s.terminatedAt !== undefined && s.now >= s.terminatedAt && s.now < end ? 'CANCELLED'
      : s.now < start ? 'PENDING' : s.now < end ? 'RUNNING' : failed ? 'FAILED' : 'COMPLETED';
    return {
      Id: `s-${k + 1}`,
      Name: stepNames[k],
      Status: {
        State: state,
        Timeline: {
          CreationDateTime: new Date(created ?? stepsAt),
          ...(s.now >= start ? { StartDateTime: new Date(start) } : {}),
          ...(s.now >= end ? { EndDateTime: new Date(end) } : {}),
        },
        ...(failed ? { FailureDetails: { Reason: 'Task failed', Message: 'exit code 3', LogFile: 's3://b/logs/j-SIM/steps/s-2/stderr.gz' } } : {}),
      },
    };
  };

  emrMock.on(RunJobFlowCommand).callsFake((input: { Steps: StepConfig[] }) => {
    created = s.now;
    stepsAt = s.now + 300 * S;
    stepNames = input.Steps.map((x) => x.Name ?? '');
    return { JobFlowId: 'j-SIM' };
  });
  emrMock.on(AddJobFlowStepsCommand).callsFake((input: { Steps: StepConfig[] }) => {
    stepsAt = s.now;
    stepNames = input.Steps.map((x) => x.Name ?? '');
    return { StepIds: input.Steps.map((_, k) => `s-${k + 1}`) };
  });
  emrMock.on(DescribeClusterCommand).callsFake(() => {
    if (s.throttleDescribe > 0) {
      s.throttleDescribe--;
      throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
    }
    if (s.existing) return { Cluster: { Id: 'j-USER', ReleaseLabel: 'emr-7.13.0', Status: { State: 'RUNNING', Timeline: { CreationDateTime: new Date(T0 - 3600 * S), ReadyDateTime: new Date(T0 - 3300 * S) } } } };
    const ready = (created ?? 0) + 300 * S;
    return {
      Cluster: {
        Id: 'j-SIM',
        ReleaseLabel: 'emr-7.14.0',
        Status: {
          State: s.terminatedAt !== undefined ? 'TERMINATING' : s.now < ready ? 'STARTING' : 'RUNNING',
          Timeline: { CreationDateTime: new Date(created ?? 0), ...(s.now >= ready ? { ReadyDateTime: new Date(ready) } : {}) },
        },
      },
    };
  });
  emrMock.on(ListStepsCommand).callsFake((input: { StepIds?: string[] }) => {
    const all = stepNames.map((_, k) => stepState(k));
    return { Steps: input.StepIds ? all.filter((x) => input.StepIds?.includes(x.Id ?? '')) : [...all].reverse() };
  });
  emrMock.on(ListInstancesCommand).callsFake(() => ({
    Instances: Array.from({ length: s.existing ? 3 : 5 }, (_, i) => ({
      Id: `ci-${i}`, InstanceType: 'm5.xlarge', Status: { State: 'RUNNING', Timeline: { CreationDateTime: new Date(created ?? T0 - 3600 * S) } },
    })),
  }));
  emrMock.on(TerminateJobFlowsCommand).callsFake(() => {
    s.terminatedAt = s.now;
    return {};
  });
  emrMock.on(CancelStepsCommand).resolves({});

  s3Mock.on(HeadBucketCommand).resolves({});
  s3Mock.on(PutObjectCommand).callsFake((input: { Key: string; Body: unknown }) => {
    const body = input.Body;
    if (typeof body === 'string') s.stored.set(input.Key, body);
    else if (body instanceof Uint8Array) s.stored.set(input.Key, Buffer.from(body).toString('utf8'));
    return {};
  });
  s3Mock.on(DeleteObjectsCommand).callsFake((input: { Delete: { Objects: { Key: string }[] } }) => {
    s.deleted.push(...input.Delete.Objects.map((o) => o.Key));
    return {};
  });
  s3Mock.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => {
    const dataset = input.Prefix.split('/').at(-2) ?? '';
    const names = ['part-00000.gz', 'part-00001.gz', ...(s.complete === undefined || s.complete.includes(dataset) ? ['_SUCCESS'] : [])];
    return { Contents: names.map((n) => ({ Key: `${input.Prefix}${n}` })), IsTruncated: false };
  });
  const parts: Record<string, string> = { 'part-00000.gz': '0:1\t0.5\n2:3\t1\n', 'part-00001.gz': '1:2\t0.25\n' };
  s3Mock.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const name = input.Key.split('/').pop() ?? '';
    const log = Object.entries(s.logs ?? {}).find(([k]) => input.Key.endsWith(k))?.[1];
    const text = s.stored.get(input.Key) ?? parts[name] ?? log;
    if (text === undefined) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
    const bytes = gzipSync(text);
    return { Body: { transformToByteArray: async () => new Uint8Array(bytes) } as never };
  });

  const config = parseEmrBackend({
    kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench', poll_s: 30, max_cost_usd: 5,
    instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 4 } }, ...cfg,
  });
  const dir = mkdtempSync(join(tmpdir(), 'emr-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'ndd-job.js');
  writeFileSync(script, '// stand-in for the bundled job script\n');
  const warnings: string[] = [];
  const backend = createEmrBackend(config, {
    emr, s3, runId: 'r1',
    now: () => s.now,
    sleep: async (ms, signal) => {
      s.sleeps.push(ms);
      s.now += ms;
      if (s.abortAt && s.now >= s.abortAt.at) s.abortAt.ctl.abort();
      if (signal?.aborted) throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    },
    bundle: async () => script,
    warn: (l) => warnings.push(l),
    resume: s.resume === true,
    ...(sim.curves ? { curves: sim.curves, ec2 } : {}),
  });
  const progress: string[] = [];
  const ctx = (signal: AbortSignal = new AbortController().signal): BackendContext => ({
    docs: { ids: ['a', 'b', 'c', 'd'], texts: ['one two', 'one two', 'three', 'four'] },
    workDir: dir,
    signal,
    progress: (phase) => progress.push(phase),
  });
  return { s, emrMock, s3Mock, ec2Mock, backend, ctx, warnings, progress };
}

const sent = (mock: ReturnType<typeof mockClient>, cmd: unknown) => mock.commandCalls(cmd as never);

describe('EMR backend: the estimate', () => {
  // CPU-s 2, 3, 5, 6 at 1–4 MB for job()'s parameters: the line 0.5 + 1.4·MB (curve-fit.test.ts)
  const MB = 1024 * 1024;
  const curves: CostCurves = {
    description: 'd',
    measured: 'by hand',
    points: [2, 3, 5, 6].map((cpu, i) => ({ variant: 'broder/sct=70', algorithm: 'broder', params: { sct: 70 }, documents: 10, text_bytes: (i + 1) * MB, cpu_s: cpu, run: `c/${i}` })),
  };

  it('says the estimate first, before anything is staged, and records it beside the actual', async () => {
    const t = setup({}, { curves: { curves, file: 'curves.json' } });
    const r = await t.backend.run(job(), t.ctx());
    // the documents' text: 'one two', 'one two', 'three', 'four' = 23 bytes, on 4 × 4 vCPUs
    expect(t.warnings[0]).toMatch(/^EMR estimate: .* on 16 vCPUs for 4 documents, 0 MB: on demand \$/);
    expect(t.progress[0]).toBe('emr: checking credentials and bucket');
    const e = r.extra?.estimate as { estimated: { cpu_s: { value: number }; step_hours: { value: number } }; actual: { step_hours: number; usd: number; cpu_s: number | null }; run: { vcpus: number } };
    expect(e.estimated.cpu_s.value).toBeCloseTo(0.5 + (1.4 * 23) / MB, 12);
    expect(e.estimated.step_hours.value).toBeCloseTo((0.5 + (1.4 * 23) / MB) / (16 * 3600), 12);
    // two steps of 300 s and the run's $0.30 (below)
    expect(e.actual).toEqual({ cpu_s: null, step_hours: 600 / 3600, usd: expect.closeTo(0.3, 12) });
    expect(e.run.vcpus).toBe(16);
  });

  it('prices spot from the history: the median zone, asked for the cluster’s types on Linux now', async () => {
    const t = setup({}, { curves: { curves, file: 'curves.json' } });
    await t.backend.run(job(), t.ctx());
    const ask = t.ec2Mock.commandCalls(DescribeSpotPriceHistoryCommand)[0]?.args[0].input;
    expect(ask).toMatchObject({ InstanceTypes: ['m5.xlarge'], ProductDescriptions: ['Linux/UNIX'], StartTime: new Date(T0) });
    // master on demand $0.24; 4 core at the median $0.08 + the EMR fee $0.048
    expect(t.warnings[1]).toContain(`spot $${(0.24 + 4 * (0.08 + 0.048)).toFixed(3)}/h`);
    expect(t.warnings[1]).toContain('EC2 spot price history');
  });

  it('falls back to the stated default when the history cannot be read', async () => {
    const t = setup({}, { curves: { curves, file: 'curves.json' } });
    t.ec2Mock.on(DescribeSpotPriceHistoryCommand).rejects(Object.assign(new Error('not authorized'), { name: 'UnauthorizedOperation' }));
    await t.backend.run(job(), t.ctx());
    expect(t.warnings[0]).toBe("spot price history unavailable (UnauthorizedOperation: not authorized); the estimate's spot column uses its stated default");
    expect(t.warnings[2]).toContain('stated default');
  });

  it('records why a variant without a curve has no estimate', async () => {
    const t = setup({}, { curves: { curves, file: 'curves.json' } });
    const r = await t.backend.run({ ...job('other'), params: { sct: 60 } }, t.ctx());
    expect(r.extra?.estimate).toEqual({ unavailable: '0 points at 0 sizes in curves.json for these parameters; a curve needs 3 points at 2 sizes' });
  });
});

describe('EMR backend: success', () => {
  let t: ReturnType<typeof setup>;
  beforeEach(() => {
    t = setup();
  });

  it('stages, runs both steps, decodes the pairs and prices the run', async () => {
    const r = await t.backend.run(job(), t.ctx());
    expect([...r.outputs.pairs.a]).toEqual([0, 2, 1]);
    expect([...r.outputs.pairs.b]).toEqual([1, 3, 2]);
    expect([...r.outputs.pairs.score]).toEqual([0.5, 1, 0.25]);
    // two steps of 300 s; start-up 300 s reported apart
    expect(r.runtimeS).toBe(600);
    expect(r.extra?.startupS).toBe(300);
    // 5 × $0.24/h from creation to the end of step 2 (900 s) = $0.30; each step 300 s × $1.20/h = $0.10
    expect(r.costUsd).toBeCloseTo(0.3, 12);
    const steps = r.extra?.steps as { costUsd: number; runtimeS: number; queueS: number }[];
    expect(steps.map((x) => x.costUsd)).toEqual([expect.closeTo(0.1, 12), expect.closeTo(0.1, 12)]);
    expect(r.extra).toMatchObject({
      clusterId: 'j-SIM',
      consoleLink: 'https://us-east-1.console.aws.amazon.com/emr/home?region=us-east-1#/clusterDetails/j-SIM',
      releaseLabel: 'emr-7.14.0',
      region: 'us-east-1',
      instances: [{ type: 'm5.xlarge', count: 1 }, { type: 'm5.xlarge', count: 4 }],
      priceTableDate: '2026-11-22',
      counters: expect.stringContaining('counters unavailable'),
    });
    expect(r.counters).toEqual({});
  });

  it('uploads the script, bootstrap, one split and the spec, then creates one cluster', async () => {
    await t.backend.run(job(), t.ctx());
    const keys = sent(t.s3Mock, PutObjectCommand).map((c) => (c.args[0].input as { Key: string }).Key);
    expect(keys).toEqual([
      'bench/r1/code/ndd-job.js', 'bench/r1/code/install-node.sh',
      'bench/r1/input/documents/part-00000.gz', 'bench/r1/variants/v01-broder_sct_70/spec.json',
    ]);
    expect(sent(t.emrMock, RunJobFlowCommand)).toHaveLength(1);
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(0);
  });

  it("stages the documents' meta once, uncompressed, for the variants whose jobs read it", async () => {
    const withMeta: Plan = { ...plan, jobs: plan.jobs.map((j, i) => (i === 0 ? { ...j, side: ['documents-meta'] } : j)) };
    const ctx = (): BackendContext => ({ ...t.ctx(), docs: { ids: ['a', 'b', 'c', 'd'], texts: ['one', 'two', 'three', 'four'], meta: [{ subject: 'x' }, undefined, undefined, { from: 'y' }] } });
    await t.backend.run(job(), ctx());
    await t.backend.run({ ...job('m1'), plan: withMeta }, ctx());
    await t.backend.run({ ...job('m2'), plan: withMeta }, ctx());
    const puts = sent(t.s3Mock, PutObjectCommand).map((c) => c.args[0].input as { Key: string; Body: Uint8Array });
    const meta = puts.filter((p) => p.Key === 'bench/r1/input/documents-meta/part-00000');
    expect(meta).toHaveLength(1);
    expect(Buffer.from(meta[0]!.Body).toString()).toBe('0\t{"subject":"x"}\n1\t{}\n2\t{}\n3\t{"from":"y"}\n');
    const steps = sent(t.emrMock, AddJobFlowStepsCommand).flatMap((c) => (c.args[0].input as { Steps: { HadoopJarStep: { Args: string[] } }[] }).Steps);
    expect(steps.some((st) => st.HadoopJarStep.Args.some((a) => a.includes('s3://ndd-test/bench/r1/input/documents-meta#side-documents-meta')))).toBe(true);
  });

  it('runs the next variant on the same cluster, charging it only the time since the last one', async () => {
    await t.backend.run(job(), t.ctx());
    const r2 = await t.backend.run(job('broder/sct=60'), t.ctx());
    expect(sent(t.emrMock, RunJobFlowCommand)).toHaveLength(1);
    expect(sent(t.emrMock, AddJobFlowStepsCommand)).toHaveLength(1);
    // AddJobFlowSteps at 900 s; its steps end at 1500 s: 600 s × $1.20/h = $0.20
    expect(r2.costUsd).toBeCloseTo(0.2, 12);
  });

  it('terminates the cluster it started at close, once', async () => {
    await t.backend.run(job(), t.ctx());
    await t.backend.close();
    await t.backend.close();
    const calls = sent(t.emrMock, TerminateJobFlowsCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ JobFlowIds: ['j-SIM'] });
  });

  it('reads counters from the step logs when EMR has delivered them', async () => {
    const log = (n: number) => `INFO mapreduce.Job: Counters: 2\n\tMap-Reduce Framework\n\t\tCPU time spent (ms)=${n}\n\tbroder\n\t\tpairs=${n / 1000}\n`;
    t = setup({}, { logs: { 'logs/j-SIM/steps/s-1/syslog.gz': log(2000), 'logs/j-SIM/steps/s-2/syslog.gz': log(3000) } });
    const r = await t.backend.run(job(), t.ctx());
    expect(r.counters.broder).toEqual({ pairs: 5 });
    expect(r.cpuS).toBe(5);
    expect(r.extra?.counters).toBe('from the step logs');
  });
});

describe('EMR backend: it terminates what it started', () => {
  it('a failed step → TerminateJobFlows, a one-line error with the cluster and its link', async () => {
    const t = setup({}, { failStep: 1 });
    const err = await t.backend.run(job(), t.ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmrRunError);
    expect((err as Error).message).toMatch(/^EMR step ndd-bench r1 v01-broder_sct_70 mr2-pair-scores FAILED: Task failed: exit code 3 \(log: s3:\/\/b\/logs\/j-SIM\/steps\/s-2\/stderr\.gz\); cluster j-SIM terminated \(https:/);
    expect((err as Error).message).not.toContain('\n');
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(1);
    expect(emrFailureDetails(err)).toMatchObject({ clusterId: 'j-SIM', terminated: true });
    await t.backend.close();
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(1);
  });

  it('the cost cap → TerminateJobFlows when the cost so far reaches max_cost_usd', async () => {
    // $1.20/h reaches $0.10 after 300 s of cluster life (each instance's first minute is billed in full before)
    const t = setup({ max_cost_usd: 0.1 });
    const err = await t.backend.run(job(), t.ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmrRunError);
    expect((err as Error).message).toMatch(/^EMR cost cap reached: \$0\.10 spent >= max_cost_usd \$0\.1; cluster j-SIM terminated/);
    expect(t.s.terminatedAt).toBe(T0 + 300 * S);
  });

  it('an abort (Ctrl-C) → TerminateJobFlows and an InterruptedError', async () => {
    const ctl = new AbortController();
    const t = setup({}, { abortAt: { at: T0 + 400 * S, ctl } });
    const err = await t.backend.run(job(), t.ctx(ctl.signal)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as Error).message).toMatch(/^interrupted: cluster j-SIM terminated/);
    expect(t.s.terminatedAt).toBe(T0 + 420 * S);
  });

  it('an error of ours → TerminateJobFlows, the error passed on with the cluster details', async () => {
    const t = setup();
    t.s3Mock.on(GetObjectCommand).callsFake(() => ({ Body: { transformToByteArray: async () => new Uint8Array(Buffer.from('garbage\n')) } as never }));
    const err = await t.backend.run(job(), t.ctx()).catch((e: unknown) => e);
    expect((err as Error).message).toContain('line 1: not a pair record');
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(1);
    expect(emrFailureDetails(err)).toMatchObject({ clusterId: 'j-SIM', terminated: true });
    expect(t.warnings.join('\n')).toContain('cluster j-SIM terminated');
  });

  it('a user’s cluster is never terminated: our steps are cancelled instead', async () => {
    const t = setup({ instance: undefined, cluster_id: 'j-USER' }, { existing: true, failStep: 0 });
    const err = await t.backend.run(job(), t.ctx()).catch((e: unknown) => e);
    expect((err as Error).message).toContain('our steps on your cluster j-USER cancelled');
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(0);
    expect(sent(t.emrMock, CancelStepsCommand)[0]?.args[0].input).toMatchObject({ ClusterId: 'j-USER', StepIds: ['s-1', 's-2'] });
    await t.backend.close();
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(0);
  });

  it('on a user’s cluster each step is charged its runtime at the cluster rate: 3 × $0.24/h × 600 s = $0.12', async () => {
    const t = setup({ instance: undefined, cluster_id: 'j-USER' }, { existing: true });
    const r = await t.backend.run(job(), t.ctx());
    expect(r.costUsd).toBeCloseTo(0.12, 12);
    expect(r.extra).toMatchObject({ clusterId: 'j-USER', releaseLabel: 'emr-7.13.0', instances: [{ type: 'm5.xlarge', count: 3 }] });
  });
});

describe('EMR backend: throttling', () => {
  it('retries DescribeCluster with exponential backoff and carries on', async () => {
    const t = setup({}, { throttleDescribe: 3 });
    const r = await t.backend.run(job(), t.ctx());
    expect(t.s.sleeps.slice(0, 4)).toEqual([1000, 2000, 4000, 30_000]);
    expect(r.outputs.pairs.a).toHaveLength(3);
    expect(t.warnings.filter((w) => w.includes('ThrottlingException'))).toHaveLength(3);
  });
});

describe('EMR backend: nothing is started or paid for on bad input', () => {
  it('missing credentials → UserError before any request', async () => {
    const t = setup();
    const s3 = new S3Client({
      region: 'us-east-1',
      credentials: async () => {
        throw Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
      },
    });
    const b = createEmrBackend(parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/x' }), {
      emr: new EMRClient({ region: 'us-east-1', credentials: creds }), s3, bundle: async () => 'unused',
    });
    const err = await b.run(job(), t.ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      'backend.emr: no AWS credentials found (Could not load credentials from any providers); set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    );
  });

  it('a bucket that does not exist → UserError, no upload, no cluster', async () => {
    const t = setup();
    t.s3Mock.on(HeadBucketCommand).rejects(Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } }));
    const err = await t.backend.run(job(), t.ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe('backend.s3_prefix: bucket ndd-test does not exist (create it with `aws s3 mb s3://ndd-test`)');
    expect(sent(t.s3Mock, PutObjectCommand)).toHaveLength(0);
    expect(sent(t.emrMock, RunJobFlowCommand)).toHaveLength(0);
  });

  it('a user’s cluster running an unpriced instance type → UserError, no steps added', async () => {
    const t = setup({ instance: undefined, cluster_id: 'j-USER' }, { existing: true });
    t.emrMock.on(ListInstancesCommand).resolves({ Instances: [{ Id: 'ci-1', InstanceType: 'x9.huge' }] });
    const err = await t.backend.run(job(), t.ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain('cluster j-USER runs x9.huge, which has no price in us-east-1');
    expect(sent(t.emrMock, AddJobFlowStepsCommand)).toHaveLength(0);
  });

  it('an abort before the run → InterruptedError, no request at all', async () => {
    const t = setup();
    const ctl = new AbortController();
    ctl.abort();
    await expect(t.backend.run(job(), t.ctx(ctl.signal))).rejects.toBeInstanceOf(InterruptedError);
    expect(t.s3Mock.calls()).toHaveLength(0);
    expect(t.emrMock.calls()).toHaveLength(0);
  });
});

describe('EMR backend: a resumed run', () => {
  it('reuses every step whose output is complete in S3 under the same spec: no cluster, no cost, the same pairs', async () => {
    const first = setup();
    await first.backend.run(job(), first.ctx());
    const spec = [...first.s.stored.entries()].find(([k]) => k.endsWith('/spec.json'));
    expect(spec).toBeDefined();
    const t = setup({}, { resume: true, stored: new Map([spec as [string, string]]) });
    const r = await t.backend.run(job(), t.ctx());
    expect(sent(t.emrMock, RunJobFlowCommand)).toHaveLength(0);
    expect(sent(t.emrMock, AddJobFlowStepsCommand)).toHaveLength(0);
    expect([...r.outputs.pairs.score]).toEqual([0.5, 1, 0.25]);
    expect(r.costUsd).toBe(0);
    expect(r.extra?.reusedSteps).toBe(2);
    expect(t.s.deleted).toEqual([]);
  });

  it('runs again the steps from the first incomplete one, after deleting what they had written', async () => {
    const first = setup();
    await first.backend.run(job(), first.ctx());
    const spec = [...first.s.stored.entries()].find(([k]) => k.endsWith('/spec.json')) as [string, string];
    const t = setup({}, { resume: true, stored: new Map([spec]), complete: ['shingles'] });
    const r = await t.backend.run(job(), t.ctx());
    const steps = (sent(t.emrMock, RunJobFlowCommand)[0]?.args[0].input as { Steps: StepConfig[] }).Steps;
    expect(steps.map((x) => x.Name?.split(' ').pop())).toEqual(['mr2-pair-scores']);
    expect(t.s.deleted.every((k) => k.includes('/pairs/'))).toBe(true);
    expect(t.s.deleted).toHaveLength(2);
    expect(r.extra?.reusedSteps).toBe(1);
    expect((r.extra?.steps as { job: string }[]).map((x) => x.job)).toEqual(['mr2-pair-scores']);
  });

  it('reuses nothing when the spec differs, and nothing without --resume, deleting old outputs first', async () => {
    const stale = setup({}, { resume: true, stored: new Map([['bench/r1/variants/v01-broder_sct_70/spec.json', '{"algorithm":"broder","params":{"sct":60}}\n']]) });
    await stale.backend.run(job(), stale.ctx());
    expect((sent(stale.emrMock, RunJobFlowCommand)[0]?.args[0].input as { Steps: StepConfig[] }).Steps).toHaveLength(2);
    const fresh = setup();
    await fresh.backend.run(job(), fresh.ctx());
    expect((sent(fresh.emrMock, RunJobFlowCommand)[0]?.args[0].input as { Steps: StepConfig[] }).Steps).toHaveLength(2);
    // both datasets' old part files and markers, deleted before the steps were submitted
    expect(fresh.s.deleted).toHaveLength(6);
  });
});

describe('EMR backend, engine: spark', () => {
  const sparkArgs = (input: unknown) => ((input as { Steps: StepConfig[] }).Steps[0]?.HadoopJarStep?.Args ?? []) as string[];

  it('stages the driver, package.json and the plan beside what the streaming steps stage, and adds Spark to the cluster', async () => {
    const t = setup({ engine: 'spark' });
    await t.backend.run(job(), t.ctx());
    const keys = sent(t.s3Mock, PutObjectCommand).map((c) => (c.args[0].input as { Key: string }).Key);
    expect(keys).toEqual([
      'bench/r1/code/ndd-job.js', 'bench/r1/code/driver.py', 'bench/r1/code/package.json', 'bench/r1/code/install-node.sh',
      'bench/r1/input/documents/part-00000.gz', 'bench/r1/variants/v01-broder_sct_70/spec.json', 'bench/r1/variants/v01-broder_sct_70/plan.json',
    ]);
    const input = sent(t.emrMock, RunJobFlowCommand)[0]?.args[0].input as { Applications: unknown; BootstrapActions: unknown; Steps: StepConfig[] };
    expect(input.Applications).toEqual([{ Name: 'Hadoop' }, { Name: 'Spark' }]);
    // the streaming steps' bootstrap: Node from dnf on every node
    expect(input.BootstrapActions).toEqual([{ Name: 'install-node', ScriptBootstrapAction: { Path: 's3://ndd-test/bench/r1/code/install-node.sh', Args: [] } }]);
    expect(input.Steps).toHaveLength(1);
    expect(input.Steps[0]?.HadoopJarStep?.Jar).toBe('command-runner.jar');
    expect(input.Steps[0]?.ActionOnFailure).toBe('CANCEL_AND_WAIT');
    const v = 's3://ndd-test/bench/r1/variants/v01-broder_sct_70';
    // 0.95 × 4 m5.xlarge × 4 vCPU = 15 reducers, as the streaming steps have
    expect(sparkArgs(input)).toEqual([
      'spark-submit', '--master', 'yarn', '--deploy-mode', 'cluster', '--name', 'ndd-bench r1 broder/sct=70',
      '--files', `s3://ndd-test/bench/r1/code/ndd-job.js,s3://ndd-test/bench/r1/code/package.json,${v}/spec.json`,
      '--conf', 'spark.task.maxFailures=4', '--conf', 'spark.hadoopRDD.ignoreEmptySplits=false', '--conf', 'spark.log.level=WARN', '--conf', 'spark.python.worker.reuse=true',
      's3://ndd-test/bench/r1/code/driver.py', `${v}/plan.json`,
    ]);
    const driverPlan = JSON.parse(t.s.stored.get('bench/r1/variants/v01-broder_sct_70/plan.json') ?? '{}') as Record<string, unknown>;
    expect(driverPlan).toMatchObject({
      node: 'node-20',
      datasets: { documents: 's3://ndd-test/bench/r1/input/documents', shingles: `${v}/shingles`, pairs: `${v}/pairs` },
      reduce_tasks: 15,
      result: `${v}/result.json`,
    });
  });

  it("charges the one step's time as the streaming steps' and reads the counters from the driver's result.json", async () => {
    const t = setup({ engine: 'spark', spark_conf: { 'spark.executor.memory': '4g' } });
    t.s.stored.set('bench/r1/variants/v01-broder_sct_70/result.json', JSON.stringify({ ok: true, counters: { broder: { pairs: 3 } }, jobs: [] }));
    const r = await t.backend.run(job(), t.ctx());
    expect([...r.outputs.pairs.score]).toEqual([0.5, 1, 0.25]);
    expect(r.counters).toEqual({ broder: { pairs: 3 } });
    expect(r.extra?.counters).toBe("from the Spark driver's result.json");
    // one step of 300 s after 300 s of start-up: 5 × $0.24/h × 600 s = $0.20
    expect(r.runtimeS).toBe(300);
    expect(r.costUsd).toBeCloseTo(0.2, 12);
    expect((r.extra?.steps as { job: string }[]).map((x) => x.job)).toEqual(['spark-submit: mr1-shingle-pairs, mr2-pair-scores']);
    expect(sparkArgs(sent(t.emrMock, RunJobFlowCommand)[0]?.args[0].input)).toContain('spark.executor.memory=4g');
    await t.backend.close();
    expect(sent(t.emrMock, TerminateJobFlowsCommand)).toHaveLength(1);
  });

  it('on --resume reuses the step only when every job of the variant finished, else runs it whole after clearing its outputs', async () => {
    const first = setup({ engine: 'spark' });
    await first.backend.run(job(), first.ctx());
    const spec = [...first.s.stored.entries()].find(([k]) => k.endsWith('/spec.json')) as [string, string];
    const done = setup({ engine: 'spark' }, { resume: true, stored: new Map([spec]) });
    const r = await done.backend.run(job(), done.ctx());
    expect(sent(done.emrMock, RunJobFlowCommand)).toHaveLength(0);
    expect(r.extra?.reusedSteps).toBe(2);
    const half = setup({ engine: 'spark' }, { resume: true, stored: new Map([spec]), complete: ['shingles'] });
    await half.backend.run(job(), half.ctx());
    expect((sent(half.emrMock, RunJobFlowCommand)[0]?.args[0].input as { Steps: StepConfig[] }).Steps).toHaveLength(1);
    // both jobs' outputs (two part files and a marker; one without a marker) are cleared: the driver writes them again
    expect(half.s.deleted).toHaveLength(5);
  });
});
