/**
 * Document-level SpotSigs: jobs and kernel against a brute-force Jaccard of every pair's spot
 * chains (readable strings, no fingerprints, no length filter, no index), and against each
 * other on real mail.
 */
import { describe, expect, it } from 'vitest';
import { mostFrequent, spotChains } from '../../../algorithms/text/sentence-signatures.ts';
import { spotSigsParams } from '../../../algorithms/spotsigs/params.ts';
import { plan } from '../../../algorithms/spotsigs/plan.ts';
import { documentFrequencies } from '../../../algorithms/text/document-frequencies.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { words } from '../../../algorithms/text/tokens.ts';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { mulberry32 } from '../text/random-text.ts';
import { runJobs, runKernel } from '../../support/span-plan-runs.ts';

function randomDocs(seed: number, n: number): string[] {
  const random = mulberry32(seed);
  const vocabulary = 'the a of to and is cat dog sat ran on mat log house tree red big small blue bird sang warm'.split(' ');
  const base = Array.from({ length: 6 }, () => Array.from({ length: 30 }, () => vocabulary[Math.floor(random() * vocabulary.length)] as string));
  return Array.from({ length: n }, () => {
    const doc = [...(base[Math.floor(random() * base.length)] as string[])];
    const edits = Math.floor(random() * 8);
    for (let e = 0; e < edits; e++) doc[Math.floor(random() * doc.length)] = vocabulary[Math.floor(random() * vocabulary.length)] as string;
    return doc.join(' ');
  });
}

describe('document-level SpotSigs', () => {
  it.each([
    { antecedents: 3, distance: 1, chain: 2, tau: 0.5 },
    { antecedents: 5, distance: 2, chain: 1, tau: 0.3 },
    { antecedents: 4, distance: 1, chain: 3, tau: 0.6 },
  ])('jobs and kernel equal brute force for %j', async (raw) => {
    const texts = randomDocs(3 + raw.chain, 30);
    const params = spotSigsParams.parse(raw);
    const antecedents = new Set(mostFrequent(documentFrequencies(texts.map((t) => words(normalize(t)))), params.antecedents));
    const sets = texts.map((t) => new Set(spotChains(words(normalize(t)), antecedents, params.distance, params.chain)));
    const expected: string[] = [];
    for (let a = 0; a < sets.length; a++) {
      for (let b = a + 1; b < sets.length; b++) {
        const A = sets[a] as Set<string>;
        const B = sets[b] as Set<string>;
        let c = 0;
        for (const s of A) if (B.has(s)) c++;
        if (c > 0 && c / (A.size + B.size - c) >= params.tau) expected.push(`${a} ${b} ${c / (A.size + B.size - c)}`);
      }
    }
    expected.sort();
    expect(expected.length).toBeGreaterThan(5);
    const docs = { ids: texts.map((_, i) => `d${i}`), texts };
    const p = plan(params, { minScore: Number.MIN_VALUE, seed: 1 });
    const jobs = runJobs(p, docs);
    expect(jobs.pairs).toEqual(expected);
    const kernel = await runKernel(p, docs);
    expect(kernel.pairs).toEqual(expected);
    expect(kernel.counters).toEqual(jobs.counters);
  });

  it('jobs and kernel agree on the hard-ham-1 folder of the bundled corpus', async () => {
    const ids: string[] = [];
    const texts: string[] = [];
    for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['hard-ham-1'] } }, newCorpusStats())) {
      ids.push(d.id);
      texts.push(d.text);
    }
    const p = plan(spotSigsParams.parse({}), { minScore: Number.MIN_VALUE, seed: 1 });
    const jobs = runJobs(p, { ids, texts });
    const kernel = await runKernel(p, { ids, texts });
    expect(jobs.pairs.length).toBeGreaterThan(5);
    expect(kernel.pairs).toEqual(jobs.pairs);
    expect(kernel.counters).toEqual(jobs.counters);
  });
});
