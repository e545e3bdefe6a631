import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCostCurve } from '../../../harness/commands/cost-curve.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cost-curve-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('bench cost-curve', () => {
  it("writes one point per variant with the run's CPU and its text's UTF-8 bytes", async () => {
    const config = join(root, 'c.yaml');
    writeFileSync(config, `experiment: c\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }\nbackend: { kind: local, workers: 1 }\n`);
    const r = await runExperiment(runOptions(config, join(root, 'results'), {}));
    if (r.kind !== 'completed') throw new Error('the run did not complete');
    // the bytes counted a second way: every text of the corpus file
    const texts = readFileSync(SMALL_JSONL, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text);
    const bytes = texts.filter((t) => t.trim() !== '').reduce((n, t) => n + Buffer.byteLength(t), 0);
    expect(r.record.corpus.text_bytes).toBe(bytes);
    const out = join(root, 'curves.json');
    const lines: string[] = [];
    const curves = await writeCostCurve({ runs: [r.dir], out }, (t) => lines.push(t));
    expect(curves.points).toHaveLength(1);
    expect(curves.points[0]).toMatchObject({ variant: 'ground-truth', documents: r.record.corpus.documents, text_bytes: bytes, run: `c/${r.record.run_id}` });
    expect(curves.points[0]?.cpu_s).toBe(r.record.variants[0]?.measures['standalone_cpu_s'] ?? r.record.variants[0]?.measures['cpu_s']);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(curves);
    expect(lines[0]).toBe(`wrote ${out}: 1 point at 1 size (a curve needs runs at 2 sizes at least)\n`);
  });
});
