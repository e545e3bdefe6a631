/**
 * The S3 folders (slugs) of the runs inside an expanded variant (trials, calibration runs) are
 * named by the variant's position and the run's place among its runs, not by how many runs the
 * backend happened to start: a resumed run, which skips what the checkpoint holds, finds the
 * steps an interrupted run completed and reuses them. The whole runner against a simulated EMR
 * (aws-sdk-client-mock on the client classes, so the backend the runner creates is mocked).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { EMRClient } from '@aws-sdk/client-emr';
import { DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { DescribeSpotPriceHistoryCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import { SMALL_JSONL } from '../../../support/corpus.ts';
import { completeEveryStep } from '../../../support/emr-cluster.ts';
import { runOptions } from '../../../support/run-options.ts';

/** the cluster's timeline: now, as the backend prices by its real clock */
const T = new Date();
const emrMock = mockClient(EMRClient);
const s3Mock = mockClient(S3Client);
// the estimate's spot price history: none, so no request leaves the machine
mockClient(EC2Client).on(DescribeSpotPriceHistoryCommand).resolves({ SpotPriceHistory: [] });
/** spec.json objects written, by key (the simulated bucket) */
const stored = new Map<string, string>();
/** the step names submitted, per call */
let submitted: string[][] = [];
/** aborts the first run when it fetches the pairs of the run whose slug ends so */
let abortOn: { slug: string; ctl: AbortController } | undefined;

function simulate(): void {
  completeEveryStep(emrMock, T, (names) => void submitted.push(names));
  s3Mock.on(HeadBucketCommand).resolves({});
  s3Mock.on(PutObjectCommand).callsFake((input: { Key: string; Body: unknown }) => {
    if (input.Key.endsWith('/spec.json')) {
      const body = input.Body;
      stored.set(input.Key, typeof body === 'string' ? body : Buffer.from(body as Uint8Array).toString('utf8'));
    }
    return {};
  });
  s3Mock.on(DeleteObjectsCommand).resolves({});
  // Every dataset listed as complete (Hadoop's _SUCCESS) with one part file.
  s3Mock.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => ({
    Contents: ['part-00000.gz', '_SUCCESS'].map((n) => ({ Key: `${input.Prefix}${n}` })),
    IsTruncated: false,
  }));
  s3Mock.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const spec = stored.get(input.Key);
    let text = spec;
    if (text === undefined && input.Key.endsWith('/part-00000.gz')) {
      if (abortOn && input.Key.includes(`${abortOn.slug}/`)) {
        abortOn.ctl.abort();
        throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
      }
      text = '0:1\t0.5\n2:3\t0.25\n';
    }
    if (text === undefined) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
    const bytes = gzipSync(text);
    return { Body: { transformToByteArray: async () => new Uint8Array(bytes) } as never };
  });
}

let root: string;
let config: string;
beforeAll(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
  vi.stubEnv('AWS_PROFILE', undefined as unknown as string);
  simulate();
  root = mkdtempSync(join(tmpdir(), 'emr-parts-'));
  config = join(root, 'p.yaml');
  writeFileSync(
    config,
    `experiment: p
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    name: mod
    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: 2, residues: all } }
backend: { kind: emr, region: us-east-1, s3_prefix: 's3://ndd-test/bench', max_cost_usd: 5, instance: { master: { type: m5.xlarge }, core: { type: m5.xlarge, count: 2 } } }
`,
  );
});
afterAll(() => {
  emrMock.restore();
  s3Mock.restore();
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

const slugOf = (stepName: string): string => stepName.split(' ')[2] as string;

describe('EMR: the runs of an expanded variant', () => {
  it('are named by the variant’s position and their place, and a resumed run reuses the steps an interrupted one completed', async () => {
    // The first run is interrupted while it fetches the pairs of the second trial: its steps are
    // complete in S3, but the checkpoint has only the ground truth and the first trial.
    const ctl = new AbortController();
    abortOn = { slug: 'mod_residue_1', ctl };
    const first = runExperiment(runOptions(config, join(root, 'out'), { runId: 'x', signal: ctl.signal, notice: () => {} }));
    await expect(first).rejects.toThrow(/^interrupted/);
    const firstSlugs = [...new Set(submitted.flat().map(slugOf))];
    const specFolders = [...stored.keys()].map((k) => k.split('/').at(-2));

    abortOn = undefined;
    submitted = [];
    const r = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'x', earlier: { checkpoint: 'resume' }, notice: () => {} }));
    expect(r.kind).toBe('completed');
    // the second trial's steps are reused from S3: nothing is submitted again
    expect(submitted).toEqual([]);
    // ground truth at position 1; the variant `mod` at position 2, its trials parts 1 and 2
    expect(firstSlugs).toEqual(['v01-ground-truth', 'v02p1-mod_residue_0', 'v02p2-mod_residue_1']);
    expect(specFolders).toEqual(['v01-ground-truth', 'v02p1-mod_residue_0', 'v02p2-mod_residue_1']);
  }, 120_000);

  it('the dry run lists the folders the run uses', async () => {
    const r = await runExperiment(runOptions(config, join(root, 'dry'), { runId: 'x', dryRun: { documents: 30 } }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const specs = (r.plan as { objects: { uri: string }[] }).objects.map((o) => o.uri).filter((u) => u.endsWith('/spec.json'));
    expect(specs.map((u) => u.split('/').at(-2))).toEqual(['v01-ground-truth', 'v02p1-mod_residue_0', 'v02p2-mod_residue_1']);
  });
});
