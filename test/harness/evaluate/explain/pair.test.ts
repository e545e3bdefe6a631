import { describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../../algorithms/broder/index.ts';
import type { AlgorithmAdapter } from '../../../../contract/index.ts';
import { explainPair, type ExplainedVariant } from '../../../../harness/evaluate/explain/pair.ts';
import { docSet } from '../../../support/corpus.ts';

const truth: ExplainedVariant = { name: 'ground-truth', adapter: broder as unknown as AlgorithmAdapter, params: broder.params.parse({ shingle: { unit: 'char', size: 5 } }), decisions: { kind: 'score-at-threshold' } };
// "ab cd ef gh" and "ab cd ef xy" at n = 5 share 2 of 4 shingles: RR 0.5
const docs = docSet(['ab cd ef gh', 'ab cd ef xy']);
const question = (variant: ExplainedVariant, score: number | null, threshold: number) => ({ docs, a: 0, b: 1, variant, truth, threshold, score, seed: 1, width: 100 });
const silent: ExplainedVariant = { name: 'silent', adapter: { ...broder, explain: undefined } as unknown as AlgorithmAdapter, params: truth.params, decisions: { kind: 'every-reported-pair' } };

describe('explainPair', () => {
  it('computes the exact resemblance, the sizes and the shared text from the ground truth', async () => {
    const e = await explainPair(question(truth, 0.5, 0.5));
    expect(e.exact).toEqual({ variant: 'ground-truth', resemblance: 0.5, shared: 2, near_duplicate: true });
    expect(e.a).toMatchObject({ id: 'd0', index: 0, chars: 11, words: 4, features: 3, spans: [[0, 8, 2]] });
    expect(e.verdict).toBe('true positive');
    expect(e.evidence?.data).toMatchObject({ kept: 2, score: 0.5 });
  });

  it('calls a reported pair of an every-reported-pair detector a false positive below the threshold, with how wrong it is', async () => {
    const e = await explainPair(question(silent, 0.9, 0.8));
    expect(e.run).toEqual({ score: 0.9, decided: true, rule: 'every pair it reports' });
    expect(e.verdict).toBe('false positive');
    expect(e.wrongness).toBeCloseTo(0.3, 12);
    expect(e.evidence).toBeNull();
  });

  it('calls an unreported pair at or above the threshold a false negative', async () => {
    const e = await explainPair(question(silent, null, 0.4));
    expect([e.verdict, e.wrongness]).toEqual(['false negative', 0.5 - 0.4]);
  });

  it("takes each document's words from the run's counts when given, instead of counting them again", async () => {
    // the run's size groups count 4 words in each ("ab cd ef gh"); other numbers show which were read
    const e = await explainPair({ ...question(truth, 0.5, 0.5), words: Uint32Array.from([7, 9]) });
    expect([e.a.words, e.b.words]).toEqual([7, 9]);
  });

  it('decides a score-at-threshold detector by its score', async () => {
    expect((await explainPair(question(truth, 0.3, 0.5))).verdict).toBe('false negative');
    expect((await explainPair(question(truth, 0.8, 0.7))).verdict).toBe('false positive');
  });
});

describe('explainPair of a clustered variant', () => {
  // Word 1-shingles: each document is its set of words. By hand:
  //   RR(d0, d1) = |{apple banana cherry}| / |{apple banana cherry date elder}| = 3/5
  //   RR(d1, d2) = |{apple banana}| / |{apple banana cherry elder fig grape}| = 2/6
  //   RR(d2, d3) = |{banana fig grape}| / |{apple banana fig grape honey}| = 3/5
  //   RR(d0, d3) = |{banana}| / |{apple banana cherry date fig grape honey}| = 1/7
  const words = docSet(['apple banana cherry date', 'apple banana cherry elder', 'apple banana fig grape', 'honey banana fig grape']);
  const byWord: ExplainedVariant = { name: 'ground-truth', adapter: broder as unknown as AlgorithmAdapter, params: broder.params.parse({ shingle: { unit: 'word', size: 1 } }), decisions: { kind: 'score-at-threshold' } };
  const clustered: ExplainedVariant = { ...silent, name: 'clustered' };
  const clusters = { clusterOf: Int32Array.from([0, 0, 0, 0]), links: { a: [0, 1, 2, 0], b: [1, 2, 3, 3] }, madeOf: 'decided pairs' as const };

  it('gives the chain of decided pairs whose weakest link is strongest, weakest first, not the direct link', async () => {
    const e = await explainPair({ docs: words, a: 0, b: 3, variant: clustered, truth: byWord, threshold: 0.5, score: 1, seed: 1, width: 100, clusters });
    expect(e.exact.resemblance).toBeCloseTo(1 / 7, 12);
    expect(e.verdict).toBe('false positive');
    expect(e.chain?.path).toEqual(['d0', 'd1', 'd2', 'd3']);
    expect(e.chain?.links.map((l) => [l.from, l.to, l.step])).toEqual([
      ['d1', 'd2', 2],
      ['d0', 'd1', 1],
      ['d2', 'd3', 3],
    ]);
    expect(e.chain?.links.map((l) => l.resemblance)).toEqual([2 / 6, 3 / 5, 3 / 5]);
    expect(e.chain).toMatchObject({ cluster_size: 4, made_of: 'decided pairs', bottleneck: 2 / 6 });
  });

  it('gives no chain when the variant has no clusters or the pair is in none', async () => {
    const base = { docs: words, a: 0, b: 3, variant: clustered, truth: byWord, threshold: 0.5, score: null, seed: 1, width: 100 };
    expect((await explainPair(base)).chain).toBeUndefined();
    expect((await explainPair({ ...base, clusters: { ...clusters, clusterOf: Int32Array.from([0, 0, 1, 1]) } })).chain).toBeUndefined();
  });
});
