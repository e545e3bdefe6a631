/**
 * A run whose texts are beyond `texts_mb` reads them back from its work folder: every detector
 * that reads texts, on threads and off, writes the same pairs, measures, tables and error
 * files as the run that holds them in memory, and the file goes with the work folder.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { withoutVaryingColumns } from '../../support/measured-columns.ts';
import { runOptions } from '../../support/run-options.ts';

const MAIL = fileURLToPath(new URL('../../fixtures/mail', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'run-spilled-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function config(name: string, texts: string): string {
  const file = join(root, `${name}.yaml`);
  writeFileSync(
    file,
    `experiment: mail
corpus: { format: spamassassin, path: ${MAIL}, exact_duplicates: remove }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 8 }, sampling: { method: mod, m: [2] } }
  - { algorithm: simhash, params: { k: [3] } }
  - { algorithm: minhash, params: { permutations: 16, threshold: 0.5 } }
  - { algorithm: ppjoin, params: { threshold: 0.5 } }
  - { algorithm: imatch }
  - { algorithm: spotsigs }
  - { algorithm: pdc-mr }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 8 } } }
evaluate: { threshold: 0.5, min_score: 0.1 }
backend: { kind: local, workers: 2${texts} }
`,
  );
  return file;
}

function results(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (f === 'run.json' || f === 'report.html' || !/\.(csv|jsonl|gz)$/.test(f)) continue;
    const bytes = readFileSync(join(dir, f));
    out[f] = f === 'metrics.csv' ? withoutVaryingColumns(bytes.toString('utf8')) : bytes.toString('base64');
  }
  return out;
}

describe('a run with its texts in a file', () => {
  it('writes what the run with its texts in memory writes, and says where it held them', async () => {
    const inMemory = await runExperiment(runOptions(config('memory', ''), join(root, 'out'), { runId: 'memory' }));
    const inFile = await runExperiment(runOptions(config('file', ', texts_mb: 0'), join(root, 'out'), { runId: 'file' }));
    if (inMemory.kind !== 'completed' || inFile.kind !== 'completed') throw new Error('a run did not complete');
    expect([inMemory.record.corpus.texts, inFile.record.corpus.texts]).toEqual(['memory', 'file']);
    expect(inFile.record.corpus.text_bytes).toBe(inMemory.record.corpus.text_bytes);
    const want = results(inMemory.dir);
    expect(Object.keys(want).filter((f) => f.startsWith('errors/')).length).toBeGreaterThan(0);
    expect(results(inFile.dir)).toEqual(want);
  });
});
