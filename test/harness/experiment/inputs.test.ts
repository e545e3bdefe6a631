import { describe, expect, it } from 'vitest';
import { inputPaths } from '../../../harness/experiment/inputs.ts';
import type { Experiment } from '../../../harness/experiment/types.ts';
import type { DetectorCatalog } from '../../../harness/detectors.ts';

describe('inputPaths', () => {
  it("includes the span oracle of evaluate.oracle", () => {
    const exp = {
      corpus: { format: 'jsonl', path: '/data/c.jsonl' },
      evaluate: { oracle: '/data/oracle.csv' },
    } as unknown as Experiment;
    expect(inputPaths(exp)).toEqual(['/data/c.jsonl', '/data/oracle.csv']);
  });
});

describe('inputPaths with a detector catalog', () => {
  it('includes the files the variants name through their adapter’s fileParams', () => {
    const catalog = { adapters: [{ name: 'withfile', fileParams: [['table', 'path']] }, { name: 'plain' }] } as unknown as DetectorCatalog;
    const exp = {
      corpus: { format: 'jsonl', path: '/data/c.jsonl' },
      evaluate: {},
      groundTruth: { name: 'ground-truth', algorithm: 'plain', params: {} },
      variants: [
        { name: 'a', algorithm: 'withfile', params: { table: { path: '/data/df.tsv' } } },
        { name: 'b', algorithm: 'withfile', params: { table: {} } },
        { name: 'c', algorithm: 'withfile', params: { table: { path: '/data/df.tsv' } } },
      ],
    } as unknown as Experiment;
    expect(inputPaths(exp, catalog)).toEqual(['/data/c.jsonl', '/data/df.tsv']);
    expect(inputPaths(exp)).toEqual(['/data/c.jsonl']);
  });
});
