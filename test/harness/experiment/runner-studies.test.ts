/** The runner writes the TREC study tables of a config's `studies` section beside metrics.csv. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'studies-run-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('bench run with studies', () => {
  it('writes topic-collection and run-topic tables and lists them in run.json', async () => {
    // topic 1 retrieves b0 and its exact copy b0-copy (RR 1) and an unrelated document;
    // topic 2 retrieves two unrelated documents.
    writeFileSync(
      join(root, 'run.txt'),
      ['1 Q0 b0 1 3.0 t', '1 Q0 b0-copy 2 2.0 t', '1 Q0 b3 3 1.0 t', '2 Q0 b1 1 2.0 t', '2 Q0 b2 2 1.0 t', ''].join('\n'),
    );
    const config = join(root, 'exp.yaml');
    writeFileSync(
      config,
      `experiment: studies
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5] }
backend: { kind: local, workers: 1 }
studies:
  topic_collections: { runs: [run.txt] }
  run_topics: { runs: [run.txt], n: [3], shares: [0.5] }
`,
    );
    const r = await runExperiment(runOptions(config, join(root, 'results')));
    if (r.kind !== 'completed') throw new Error('not completed');
    const files = readdirSync(r.dir).filter((f) => f.endsWith('.csv')).sort();
    expect(files).toEqual(['distribution.csv', 'metrics.csv', 'run-topic-prevalence.csv', 'run-topic-shares.csv', 'size-groups.csv', 'topic-collections.csv']);
    expect(Object.keys(r.record.tables).sort()).toEqual(['run-topic-prevalence.csv', 'run-topic-shares.csv', 'size-groups.csv', 'topic-collections.csv']);
    // topic 1's top 3: b0 and b0-copy have a near-duplicate in it (2 of 3); topic 2: none.
    const shares = readFileSync(join(r.dir, 'run-topic-shares.csv'), 'utf8');
    expect(shares).toMatch(/^run,topic,n,/);
    expect(shares).toMatch(/\n[^,\n]+,1,3,3,(0,)?2,0\.6666666666666666\n/);
  });
});
