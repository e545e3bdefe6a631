/** `bench run --backend emr --dry-run`: the estimate beside the plan, from the config's cost curve. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import type { EmrEstimate } from '../../../harness/mapreduce/emr/estimate.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

const MB = 1024 * 1024;
const SCT3 = { shingle: { unit: 'char', size: 16, start: 'word' }, fingerprint: 'rabin64', sampling: { method: 'sct', threshold: 3 } };
let root: string;

function config(name: string, curve: string): string {
  const file = join(root, `${name}.yaml`);
  writeFileSync(
    file,
    `experiment: ${name}
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: sct, threshold: [3] } }
backend: { kind: emr, region: us-east-1, s3_prefix: s3://example-bucket/ndd, cost_curve: ${curve} }
`,
  );
  return file;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dry-run-'));
  // CPU-s 2, 3, 5, 6 at 1–4 MB: at 10 MB 14.5 ± 2.919986·√1.25 (test/harness/mapreduce/emr/curve-fit.test.ts)
  const points = [2, 3, 5, 6].map((cpu, i) => ({ variant: 'broder/sct=3', algorithm: 'broder', params: SCT3, documents: 10, text_bytes: (i + 1) * MB, cpu_s: cpu, run: `c/${i}` }));
  writeFileSync(join(root, 'curves.json'), JSON.stringify({ description: 'd', measured: 'by hand', points }));
  writeFileSync(join(root, 'bad.json'), JSON.stringify({ description: 'd', measured: 'm', points: [] }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('bench run --backend emr --dry-run', () => {
  it('estimates each variant with a curve from the collection’s size, and says which have none', async () => {
    const curves = join(root, 'curves.json');
    const r = await runExperiment(runOptions(config('est', curves), join(root, 'results'), { dryRun: { documents: 10, documentBytes: MB }, env: {} }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const plan = r.plan as { estimate: EmrEstimate; summary: string[] };
    expect(plan.estimate.documents).toEqual({ count: 10, mb: 10, exact: false });
    // the default cluster: 4 core m5.xlarge, 16 vCPUs
    expect(plan.estimate.vcpus).toBe(16);
    const sct = plan.estimate.variants.find((v) => v.variant === 'broder/sct=3');
    expect(sct?.cpuS?.value).toBeCloseTo(14.5, 9);
    expect(sct?.cpuS?.high).toBeCloseTo(14.5 + 2.919986 * Math.sqrt(1.25), 5);
    expect(plan.estimate.missing).toEqual(['ground-truth']);
    expect(plan.summary[0]).toMatch(/^EMR estimate: .* on 16 vCPUs for 10 documents, 10 MB \(assumed\): on demand \$.*, spot \$/);
    expect(plan.summary.join('\n')).toContain(curves);
  });

  it('refuses a curve file that is not one, naming it and the place', async () => {
    const bad = join(root, 'bad.json');
    await expect(runExperiment(runOptions(config('bad', bad), join(root, 'results'), { dryRun: { documents: 10 }, env: {} }))).rejects.toThrow(`${bad}: points: `);
  });
});
