import { describe, expect, it } from 'vitest';
import { documentFrequencies, documentFrequencyJob, normalizedIdf, readDocumentFrequencies } from '../../../algorithms/text/document-frequencies.ts';
import { runJobInMemory } from '../../support/run-job.ts';

const docs = ['the cat sat on the mat', 'the dog sat', 'a cat'];
const words = (t: string) => t.split(' ');

describe('document frequencies', () => {
  it('counts each term once per document, and the documents', () => {
    const t = documentFrequencies(docs.map(words));
    expect(t.documents).toBe(3);
    // by hand: the 2 (docs 0, 1), cat 2 (0, 2), sat 2 (0, 1), on 1, mat 1, dog 1, a 1
    expect(Object.fromEntries(t.df)).toEqual({ the: 2, cat: 2, sat: 2, on: 1, mat: 1, dog: 1, a: 1 });
  });

  it('the job writes the same table as the pure function', () => {
    const job = documentFrequencyJob({ name: 'df', input: 'documents', output: 'df', terms: words });
    const out = runJobInMemory(job, docs.map((t, i) => [String(i), t] as const));
    expect(readDocumentFrequencies(out.records)).toEqual(documentFrequencies(docs.map(words)));
    expect(out.counters.df?.terms).toBe(7);
  });

  it('normalized idf is log(N/df)/log(N)', () => {
    expect(normalizedIdf(1, 100)).toBeCloseTo(1, 15);
    expect(normalizedIdf(10, 100)).toBeCloseTo(0.5, 15);
    expect(normalizedIdf(100, 100)).toBe(0);
    expect(normalizedIdf(1, 1)).toBe(0);
  });
});
