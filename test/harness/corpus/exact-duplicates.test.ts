/** Exact duplicates removed before the detectors run (Ye et al. 4.2), by hand and through `bench run`. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalText, removeExactDuplicates } from '../../../harness/corpus/exact-duplicates.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { runOptions } from '../../support/run-options.ts';

// d0 and d3 are the same words with other white space; d1 is d0 with a capital (not the same text);
// d4 and d5 repeat d2. Groups: {d0, d3} and {d2, d4, d5}.
const TEXTS = ['the cat sat', 'The cat sat', 'a dog ran far', ' the  cat\n\tsat ', 'a dog ran far', 'a dog ran far'];

describe('exact duplicates', () => {
  it('collapses white space before hashing, and nothing else', () => {
    expect(canonicalText(' the  cat\n\tsat ')).toBe('the cat sat');
    expect(canonicalText('The cat sat')).toBe('The cat sat');
  });

  it('keeps the first document of each group, in reading order', () => {
    const r = removeExactDuplicates({ ids: TEXTS.map((_, i) => `d${i}`), texts: TEXTS });
    expect(r.docs.ids).toEqual(['d0', 'd1', 'd2']);
    expect(r.groups).toEqual([
      { kept: 0, removed: [3] },
      { kept: 2, removed: [4, 5] },
    ]);
    expect(r.removed).toBe(3);
  });

  it('runs the detectors on the documents kept, with the count in run.json and the groups in exact-duplicates.csv', async () => {
    const root = mkdtempSync(join(tmpdir(), 'exact-'));
    try {
      const corpus = join(root, 'docs.jsonl');
      writeFileSync(corpus, TEXTS.map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n') + '\n');
      const config = join(root, 'x.yaml');
      writeFileSync(config, `experiment: x\ncorpus: { format: jsonl, path: ${corpus}, exact_duplicates: remove }\nground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 1 } } }\nbackend: { kind: local, workers: 1 }\n`);
      const r = await runExperiment(runOptions(config, join(root, 'results')));
      if (r.kind !== 'completed') throw new Error('expected a completed run');
      expect(r.record.corpus.documents).toBe(3);
      expect(r.record.corpus.exact_duplicates).toEqual({ groups: 2, removed: 3 });
      expect(readFileSync(join(r.dir, 'exact-duplicates.csv'), 'utf8')).toBe('group,kept,removed\n0,d0,d3\n1,d2,d4\n1,d2,d5\n');
      // d0 and d1 differ only by the capital, which normalization removes: RR 1 between the documents kept
      expect(r.record.variants[0]?.measures.pairs).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
