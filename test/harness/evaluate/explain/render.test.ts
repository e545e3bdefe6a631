import { describe, expect, it } from 'vitest';
import type { PairExplanation } from '../../../../harness/evaluate/explain/pair.ts';
import { renderExplanation } from '../../../../harness/evaluate/explain/render.ts';

const side = (id: string, index: number): PairExplanation['a'] => ({ id, index, chars: 3, words: 1, features: 1, spans: [] });
const explanation = (chain: PairExplanation['chain']): PairExplanation => ({
  variant: 'v',
  algorithm: 'x',
  a: side('d/0', 0),
  b: side('d/1', 1),
  exact: { variant: 'ground-truth', resemblance: 0.2, shared: 1, near_duplicate: false },
  threshold: 0.5,
  run: { score: 1, decided: true, rule: 'every pair it reports' },
  verdict: 'false positive',
  wrongness: 0.3,
  evidence: null,
  ...(chain ? { chain } : {}),
});
const chain = { cluster_size: 3, made_of: 'decided pairs' as const, bottleneck: 0.2, path: ['d/0', 'd/2', 'd/1'], links: [{ from: 'd/2', to: 'd/1', resemblance: 0.2, step: 2 }, { from: 'd/0', to: 'd/2', resemblance: 0.9, step: 1 }] };

describe('renderExplanation', () => {
  it('names the strongest chain when the search ended', () => {
    const out = renderExplanation(explanation(chain), { a: 'abc', b: 'abd' }, 100);
    expect(out).toContain('one cluster of 3 documents; the strongest chain of its decided pairs, weakest link first:');
    expect(out).not.toContain('bound');
  });

  it('says when the chain search stopped at its bound, within 100 columns', () => {
    const bounded = 'the search stopped at its bound (20000 links or 2000 documents weighed, of 1999000 links): this is the chain of fewest links, a stronger one may exist';
    const out = renderExplanation(explanation({ ...chain, bounded }), { a: 'abc', b: 'abd' }, 100);
    expect(out).toContain('one cluster of 3 documents; the chain of fewest links of its decided pairs, weakest link first:');
    expect(out).toContain('  the search stopped at its bound (20000 links or 2000 documents weighed, of 1999000 links):\n');
    expect(out).toContain('  this is the chain of fewest links, a stronger one may exist\n');
    expect(out.split('\n').every((l) => l.length <= 100)).toBe(true);
  });

  it('says how a clustered variant\'s clusters read the pair', () => {
    const together = { ...explanation(chain), run: { score: null, decided: false, rule: 'every pair it reports' }, verdict: 'true negative' as const, clusters: { together: true, size_a: 3, size_b: 3, verdict: 'false positive' as const, wrongness: 0.3 } };
    expect(renderExplanation(together, { a: 'abc', b: 'abd' }, 100)).toContain('\nread as clusters (a pair inside one decided): both in one of 3: FALSE POSITIVE\n');
    const apart = { ...explanation(undefined), clusters: { together: false, size_a: 1, size_b: 1234, verdict: 'true negative' as const, wrongness: 0 } };
    expect(renderExplanation(apart, { a: 'abc', b: 'abd' }, 100)).toContain('\nread as clusters (a pair inside one decided): A in none, B in one of 1,234: TRUE NEGATIVE\n');
  });
});
