/**
 * The EMR backend against a real local AWS API endpoint: moto_server (moto 5, on PATH through
 * pyenv shims). S3 staging and the EMR requests go over HTTP to it. Moto never runs steps, so
 * the run is interrupted once the steps are seen and the test checks what moto can show: the
 * staged objects, the cluster and its steps, and that the cluster ended TERMINATED.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DescribeClusterCommand, EMRClient, ListStepsCommand } from '@aws-sdk/client-emr';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Plan } from '../../../../contract/index.ts';
import { InterruptedError, UserError } from '../../../../harness/errors.ts';
import type { BackendContext, VariantJob } from '../../../../harness/mapreduce/backend.ts';
import { createEmrBackend } from '../../../../harness/mapreduce/emr/backend.ts';
import { parseEmrBackend } from '../../../../harness/mapreduce/emr/config.ts';
import { emrFailureDetails } from '../../../../harness/mapreduce/emr/errors.ts';
import { bundleJobScript } from '../../../../harness/mapreduce/streaming/bundle.ts';
import { hasMoto, MOTO_CREDENTIALS as creds, NO_MOTO, startMoto } from '../../../support/moto.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';

const BUCKET = 'ndd-moto';
const noop = () => ({ map() {}, reduce() {} });
const plan: Plan = {
  jobs: [
    { name: 'mr1-shingle-pairs', description: '', inputs: ['documents'], output: 'shingles', mapper: noop, reducer: noop },
    { name: 'mr2-pair-scores', description: '', inputs: ['shingles'], output: 'pairs', mapper: noop, combiner: noop, reducer: noop },
  ],
  output: { pairs: 'pairs', score: { kind: 'resemblance', floor: 0.1 }, decisions: { kind: 'score-at-threshold' } },
};
const job: VariantJob = { variant: 'broder/sct=70', algorithm: 'broder', params: { sct: 70 }, minScore: 0.1, seed: 0, plan };
const texts = ['the quick brown fox', 'tab\there and a newline\nthere', 'the quick brown fox'];

describe.skipIf(skipsWithout(hasMoto, 'the EMR tests against moto_server', NO_MOTO))('EMR backend against moto_server', () => {
  let stopMoto: (() => Promise<void>) | undefined;
  let endpoint = '';
  let s3: S3Client;
  let emr: EMRClient;

  beforeAll(async () => {
    requireTool(hasMoto, 'the EMR tests against moto_server', NO_MOTO);
    const moto = await startMoto();
    endpoint = moto.endpoint;
    stopMoto = moto.stop;
    s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: creds });
    emr = new EMRClient({ region: 'us-east-1', endpoint, credentials: creds });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  });

  afterAll(async () => {
    await stopMoto?.();
  });

  const workDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'emr-moto-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const context = (ctl: AbortController, progress: (p: string) => void): BackendContext => ({
    docs: { ids: ['d0', 'd1', 'd2'], texts },
    workDir: workDir(),
    signal: ctl.signal,
    progress,
  });

  it('stages the bundle and the documents, creates the cluster with both steps, terminates it on interrupt', async () => {
    const config = parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: `s3://${BUCKET}/bench`, poll_s: 0.05 });
    const backend = createEmrBackend(config, { emr, s3, runId: 'moto-run', warn: () => {} });
    const ctl = new AbortController();
    const seen: string[] = [];
    const err = await backend
      .run(job, context(ctl, (p) => {
        seen.push(p);
        if (/^emr j-\S+ (WAITING|RUNNING): mr1-shingle-pairs RUNNING$/.test(p)) ctl.abort();
      }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const clusterId = String(emrFailureDetails(err)?.clusterId);
    expect(clusterId).toMatch(/^j-/);

    // objects staged
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'bench/moto-run/' }));
    const sizes = new Map((listed.Contents ?? []).map((o) => [o.Key, o.Size]));
    expect([...sizes.keys()].sort()).toEqual([
      'bench/moto-run/code/install-node.sh',
      'bench/moto-run/code/ndd-job.js',
      'bench/moto-run/input/documents/part-00000.gz',
      'bench/moto-run/variants/v01-broder_sct_70/spec.json',
    ]);
    expect(sizes.get('bench/moto-run/code/ndd-job.js')).toBe(statSync(await bundleJobScript()).size);
    const split = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'bench/moto-run/input/documents/part-00000.gz' }));
    const lines = gunzipSync(await split.Body!.transformToByteArray()).toString('utf8');
    expect(lines).toBe('0\tthe quick brown fox\n1\ttab\\there and a newline\\nthere\n2\tthe quick brown fox\n');
    const spec = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'bench/moto-run/variants/v01-broder_sct_70/spec.json' }));
    expect(JSON.parse(await spec.Body!.transformToString())).toEqual({ algorithm: 'broder', params: { sct: 70 }, minScore: 0.1, seed: 0 });

    // the cluster, its steps, its end
    const { Cluster } = await emr.send(new DescribeClusterCommand({ ClusterId: clusterId }));
    expect(Cluster?.ReleaseLabel).toBe('emr-7.14.0');
    expect(Cluster?.Applications?.map((a) => a.Name)).toContain('Hadoop');
    expect(Cluster?.Status?.State).toMatch(/^TERMINAT/);
    const steps = (await emr.send(new ListStepsCommand({ ClusterId: clusterId }))).Steps ?? [];
    expect(steps.map((s) => s.Name).reverse()).toEqual([
      'ndd-bench moto-run v01-broder_sct_70 mr1-shingle-pairs',
      'ndd-bench moto-run v01-broder_sct_70 mr2-pair-scores',
    ]);
    const args = steps.at(-1)?.Config?.Args ?? [];
    expect(steps.at(-1)?.Config?.Jar).toBe('command-runner.jar');
    expect(args.slice(args.indexOf('-input'), args.indexOf('-input') + 4)).toEqual([
      '-input', `s3://${BUCKET}/bench/moto-run/input/documents/`,
      '-output', `s3://${BUCKET}/bench/moto-run/variants/v01-broder_sct_70/shingles/`,
    ]);
    expect(seen).toContain('emr: staging documents');
    await backend.close();
  });

  it('engine spark: stages the driver, package.json and the plan, creates the cluster with Spark and one spark-submit step, terminates it on interrupt', async () => {
    const config = parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: `s3://${BUCKET}/bench`, poll_s: 0.05, engine: 'spark' });
    const backend = createEmrBackend(config, { emr, s3, runId: 'moto-spark', warn: () => {} });
    const ctl = new AbortController();
    const err = await backend
      .run(job, context(ctl, (p) => {
        // once the poll reports the step (moto never runs it)
        if (/spark-submit/.test(p)) ctl.abort();
      }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const clusterId = String(emrFailureDetails(err)?.clusterId);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'bench/moto-spark/' }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([
      'bench/moto-spark/code/driver.py',
      'bench/moto-spark/code/install-node.sh',
      'bench/moto-spark/code/ndd-job.js',
      'bench/moto-spark/code/package.json',
      'bench/moto-spark/input/documents/part-00000.gz',
      'bench/moto-spark/variants/v01-broder_sct_70/plan.json',
      'bench/moto-spark/variants/v01-broder_sct_70/spec.json',
    ]);
    const planObject = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'bench/moto-spark/variants/v01-broder_sct_70/plan.json' }));
    expect(JSON.parse(await planObject.Body!.transformToString())).toMatchObject({
      node: 'node-20',
      datasets: { documents: `s3://${BUCKET}/bench/moto-spark/input/documents` },
      jobs: [{ name: 'mr1-shingle-pairs' }, { name: 'mr2-pair-scores', combiner: true }],
    });
    const { Cluster } = await emr.send(new DescribeClusterCommand({ ClusterId: clusterId }));
    expect(Cluster?.Applications?.map((a) => a.Name)).toEqual(expect.arrayContaining(['Hadoop', 'Spark']));
    expect(Cluster?.Status?.State).toMatch(/^TERMINAT/);
    const steps = (await emr.send(new ListStepsCommand({ ClusterId: clusterId }))).Steps ?? [];
    expect(steps.map((s) => s.Name)).toEqual(['ndd-bench moto-spark v01-broder_sct_70 spark-submit']);
    expect(steps[0]?.Config?.Jar).toBe('command-runner.jar');
    expect(steps[0]?.Config?.Args?.slice(0, 5)).toEqual(['spark-submit', '--master', 'yarn', '--deploy-mode', 'cluster']);
    await backend.close();
  });

  it('a bucket that does not exist is a one-line UserError, and no cluster is created', async () => {
    const config = parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: 's3://no-such-bucket-ndd/x', poll_s: 0.05 });
    const backend = createEmrBackend(config, { emr, s3, runId: 'moto-nobucket', warn: () => {} });
    const err = await backend.run(job, context(new AbortController(), () => {})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe('backend.s3_prefix: bucket no-such-bucket-ndd does not exist (create it with `aws s3 mb s3://no-such-bucket-ndd`)');
  });
});

describe('missing credentials through the real provider chain', () => {
  it('is a one-line UserError before any request', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    vi.stubEnv('AWS_SESSION_TOKEN', '');
    vi.stubEnv('AWS_PROFILE', '');
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/ndd-bench/credentials');
    vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/ndd-bench/config');
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    vi.stubEnv('AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', '');
    vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', '');
    vi.stubEnv('AWS_WEB_IDENTITY_TOKEN_FILE', '');
    try {
      const config = parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-bench-creds/x' });
      // Unreachable endpoint: if a request were made it would fail differently.
      const s3 = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', forcePathStyle: true });
      const backend = createEmrBackend(config, { s3, emr: new EMRClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9' }), warn: () => {} });
      const err = await backend
        .run(job, { docs: { ids: [], texts: [] }, workDir: tmpdir(), signal: new AbortController().signal, progress: () => {} })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(/^backend\.emr: no AWS credentials found \(.+\); set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY$/);
      expect((err as Error).message).not.toContain('\n');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
