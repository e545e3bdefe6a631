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

  it('decides a score-at-threshold detector by its score', async () => {
    expect((await explainPair(question(truth, 0.3, 0.5))).verdict).toBe('false negative');
    expect((await explainPair(question(truth, 0.8, 0.7))).verdict).toBe('false positive');
  });
});
