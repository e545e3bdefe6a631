/**
 * Spans end to end: a toy span-producing plan (test/contract/detectors/shared-lines.ts) gives the
 * same spans on the local backend (one thread and worker threads), on the streaming backend
 * (real processes and `sort`) and on the EMR backend (its S3 output read back: the simulated
 * cluster serves the part files the streaming run wrote), equal to the spans computed here by
 * comparing lines; the runner writes them to spans/<variant>.csv.gz and they read back.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { EMRClient } from '@aws-sdk/client-emr';
import { GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSet, Span } from '../../contract/index.ts';
import type { BackendContext, VariantJob } from '../../harness/mapreduce/backend.ts';
import { parseEmrBackend } from '../../harness/mapreduce/emr/config.ts';
import { createEmrBackend } from '../../harness/mapreduce/emr/backend.ts';
import { createLocalBackend } from '../../harness/mapreduce/local/backend.ts';
import { bundleJobScript } from '../../harness/mapreduce/streaming/bundle.ts';
import { createStreamingBackend } from '../../harness/mapreduce/streaming/backend.ts';
import { streamingBackendSchema } from '../../harness/mapreduce/streaming/config.ts';
import { runExperiment } from '../../harness/experiment/runner.ts';
import { readSpansCsvGz } from '../../harness/results/output-files.ts';
import { completeEveryStep } from '../support/emr-cluster.ts';
import { runOptions } from '../support/run-options.ts';
import { TEST_DETECTORS } from './detectors/catalog.ts';
import { linesOf, sharedLines } from './detectors/shared-lines.ts';

const TEXTS = [
  'Dear list,\nthe meeting moves to Friday.\n-- \nSent from the list server at example.org',
  'Re: meeting\n> the meeting moves to Friday.\nThanks, noted.\n-- \nSent from the list server at example.org',
  'Unrelated: tomatoes need sun.\nthe meeting moves to Friday.',
  'Nothing shared here at all.',
];
const DOCS: DocumentSet = { ids: TEXTS.map((_, i) => `m${i}`), texts: TEXTS };
const params = sharedLines.params.parse({ min_chars: 8 });
const plan = sharedLines.plan(params, { minScore: Number.MIN_VALUE, seed: 0 });
const job: VariantJob = { variant: 'shared-lines', algorithm: 'shared-lines', params, minScore: Number.MIN_VALUE, seed: 0, plan };

/** Every pair of equal trimmed lines of at least 8 characters in two documents, by comparing lines. */
function expectedSpans(): string[] {
  const out: string[] = [];
  for (let a = 0; a < TEXTS.length; a++) {
    for (let b = a + 1; b < TEXTS.length; b++) {
      for (const x of linesOf(TEXTS[a] as string)) {
        for (const y of linesOf(TEXTS[b] as string)) {
          if (x.text.length >= 8 && x.text === y.text) out.push(`${a} ${b} ${x.start} ${x.end} ${y.start} ${y.end} ${x.index} ${y.index} 1`);
        }
      }
    }
  }
  return out.sort();
}

const asRows = (spans: readonly Span[] | undefined): string[] =>
  (spans ?? []).map((s) => `${s.a} ${s.b} ${s.aStart} ${s.aEnd} ${s.bStart} ${s.bEnd} ${s.units?.aStart} ${s.units?.bStart} ${s.units?.length}`).sort();

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spans-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = (sub: string): BackendContext => ({ docs: DOCS, workDir: join(dir, sub), signal: new AbortController().signal, progress() {} });

describe('spans on every backend', () => {
  it('the oracle of this corpus is what the lines say', () => {
    // "the meeting moves to Friday." (28 characters) is line 1 of m0 at 11 ("Dear list," and its
    // newline) and line 1 of m2 at 30; in m1 it is quoted ("> …"), another line. The signature
    // line "Sent from the list server at example.org" (40 characters) is line 3 of m0 at
    // 11 + 29 + 4 = 44 and line 4 of m1 at 12 + 31 + 15 + 4 = 62; "-- " is too short to count.
    expect(expectedSpans()).toEqual(['0 1 44 84 62 102 3 4 1', '0 2 11 39 30 58 1 1 1']);
  });

  it('local backend, one thread and worker threads', async () => {
    for (const workers of [1, 2]) {
      const backend = createLocalBackend({ workers, memoryMb: 16, pricePerVcpuHour: 0, engine: 'auto', planModule: TEST_DETECTORS.planModule });
      try {
        const r = await backend.run(job, ctx(`local-${workers}`));
        expect(asRows(r.outputs.spans)).toEqual(expectedSpans());
        // m0/m1: 1 of m2's... the shorter document's lines: m0 has 4 lines, m1 5: 1/4; m0/m2: 1/2
        expect([...r.outputs.pairs.score].sort()).toEqual([0.25, 0.5]);
      } finally {
        await backend.close();
      }
    }
  });

  let streamedParts: Record<string, string[]> = {};
  it('streaming backend', async () => {
    const backend = createStreamingBackend(streamingBackendSchema.parse({ kind: 'streaming', map_tasks: 2, reduce_tasks: 2 }), {
      jobScript: () => bundleJobScript(undefined, { entry: TEST_DETECTORS.jobScriptEntry }),
    });
    const c = ctx('streaming');
    const r = await backend.run(job, c);
    expect(asRows(r.outputs.spans)).toEqual(expectedSpans());
    // keep the part files of each output dataset for the simulated EMR cluster
    const run = readdirSync(c.workDir).find((d) => d.startsWith('streaming-')) as string;
    streamedParts = {};
    for (const j of readdirSync(join(c.workDir, run)).filter((d) => d.startsWith('job-'))) {
      const out = join(c.workDir, run, j, 'out');
      const dataset = plan.jobs[Number(j.split('-')[1])]?.output as string;
      streamedParts[dataset] = readdirSync(out).filter((f) => f.startsWith('part-')).sort().map((f) => readFileSync(join(out, f), 'utf8'));
    }
    expect(Object.keys(streamedParts).sort()).toEqual(['pairs', 'span-records', 'spans']);
  }, 60_000);

  it('EMR backend reads the spans back from S3', async () => {
    const emr = new EMRClient({ region: 'us-east-1', credentials: { accessKeyId: 't', secretAccessKey: 't' } });
    const s3 = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 't', secretAccessKey: 't' } });
    const emrMock = mockClient(emr);
    const s3Mock = mockClient(s3);
    const T = new Date(Date.UTC(2026, 10, 23));
    completeEveryStep(emrMock, T);
    s3Mock.on(HeadBucketCommand).resolves({});
    s3Mock.on(PutObjectCommand).resolves({});
    const datasetOf = (key: string): string | undefined => Object.keys(streamedParts).find((d) => key.includes(`/${d}/`));
    s3Mock.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => {
      const d = datasetOf(input.Prefix);
      const parts = d ? (streamedParts[d] ?? []) : [];
      return { Contents: parts.map((_, i) => ({ Key: `${input.Prefix}part-${String(i).padStart(5, '0')}.gz` })), IsTruncated: false };
    });
    s3Mock.on(GetObjectCommand).callsFake((input: { Key: string }) => {
      const d = datasetOf(input.Key);
      const i = Number(/part-(\d+)/.exec(input.Key)?.[1]);
      const text = d ? streamedParts[d]?.[i] : undefined;
      if (text === undefined) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
      const bytes = gzipSync(text);
      return { Body: { transformToByteArray: async () => new Uint8Array(bytes) } as never };
    });
    const script = join(dir, 'ndd-job.js');
    writeFileSync(script, '// stand-in\n');
    const backend = createEmrBackend(
      parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench', poll_s: 30, max_cost_usd: 5, instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 2 } } }),
      { emr, s3, runId: 'r1', now: () => T.getTime(), sleep: async () => {}, bundle: async () => script, warn: () => {} },
    );
    try {
      const r = await backend.run(job, ctx('emr'));
      expect(asRows(r.outputs.spans)).toEqual(expectedSpans());
      expect([...r.outputs.pairs.score].sort()).toEqual([0.25, 0.5]);
    } finally {
      await backend.close();
    }
  });

  it('the runner writes spans/<variant>.csv.gz, which reads back with document ids', async () => {
    const corpus = join(dir, 'mail.jsonl');
    writeFileSync(corpus, DOCS.ids.map((id, i) => JSON.stringify({ id, text: TEXTS[i] })).join('\n') + '\n');
    const config = join(dir, 'spans.yaml');
    writeFileSync(
      config,
      `experiment: spans
corpus: { format: jsonl, path: ${corpus} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 8 } } }
runs:
  - algorithm: shared-lines
backend: { kind: local, workers: 1 }
`,
    );
    const r = await runExperiment(runOptions(config, join(dir, 'results'), { detectors: TEST_DETECTORS }));
    if (r.kind !== 'completed') throw new Error('expected a completed run');
    const file = join(r.dir, 'spans', 'shared-lines.csv.gz');
    const rows = readSpansCsvGz(readFileSync(file), file);
    const ids = (i: number): string => DOCS.ids[i] as string;
    expect(rows.map((s) => `${s.docA} ${s.docB} ${s.aStart} ${s.aEnd} ${s.bStart} ${s.bEnd} ${s.units?.aStart} ${s.units?.bStart} ${s.units?.length}`).sort()).toEqual(
      expectedSpans().map((l) => {
        const [a, b, ...rest] = l.split(' ');
        return [ids(Number(a)), ids(Number(b)), ...rest].join(' ');
      }),
    );
    expect(r.record.variants[1]?.files.map((f) => [f.file, f.rows])).toEqual([
      ['pairs/shared-lines.csv.gz', 2],
      ['spans/shared-lines.csv.gz', 2],
      // the report's excerpts: each of the two spans joins another pair of documents
      ['span-examples/shared-lines.json', 2],
      // its errors against the ground truth, explained (a sample)
      ['errors/shared-lines.jsonl', 1],
    ]);
  });
});
