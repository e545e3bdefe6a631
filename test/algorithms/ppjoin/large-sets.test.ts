/**
 * Documents with 10⁵ and 2·10⁵ tokens among hundreds of small ones that share some of their
 * tokens: the pairs still equal brute force, in jobs and kernel, and the work stays linear in the
 * tokens (the counters say how much was compared; no timing is asserted here, see bench:ci).
 *
 * Expected resemblances by construction: H1 = 100,000 distinct words; H2 = H1 with its last
 * 5,000 words replaced, J = 95,000 / 105,000; H3 = H1 plus 100,000 more, J(H1, H3) = 0.5 and
 * J(H2, H3) = 95,000 / 205,000 = 0.46.
 */
import { describe, expect, it } from 'vitest';
import { bruteForce, docSet, planFor, runJobs, runKernel, tokenSets } from './support.ts';
import { mulberry32 } from '../text/random-text.ts';

const words = (prefix: string, from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);

function corpus(): string[] {
  const h1 = words('h', 0, 100_000);
  const h2 = [...h1.slice(0, 95_000), ...words('r', 0, 5_000)];
  const h3 = [...h1, ...words('g', 0, 100_000)];
  const random = mulberry32(9);
  const small: string[] = [];
  for (let s = 0; s < 300; s++) {
    // 20 words of H1, 20 of H3's own and 20 of a small vocabulary shared by the small documents
    const pick = (prefix: string): string => `${prefix}${Math.floor(random() * 100_000)}`;
    const mine = [...Array.from({ length: 20 }, () => pick('h')), ...Array.from({ length: 20 }, () => pick('g')), ...words(`s${s % 50}x`, 0, 20)];
    small.push(mine.join(' '));
  }
  return [h1.join(' '), ...small.slice(0, 150), h2.join(' '), ...small.slice(150), h3.join(' ')];
}

describe('PPJoin on documents with 10^5 tokens and more', () => {
  const docs = docSet(corpus());
  const shingle = { unit: 'word', size: 1 } as const;
  const sets = tokenSets([...docs.texts], shingle);

  it('reports exactly the brute-force pairs, with work linear in the tokens', async () => {
    const tokens = sets.reduce((s, x) => s + x.size, 0);
    const all = bruteForce(sets, Number.MIN_VALUE);
    for (const t of [0.45, 0.9]) {
      const expected = all.filter((r) => Number(r.split(' ')[2]) >= t);
      const plan = planFor({ threshold: t, shingle, filters: { suffix: true } });
      const kernel = await runKernel(plan, docs);
      expect(kernel.rows).toEqual(expected);
      if (t === 0.45) {
        // the jobs where the prefixes are longest: every document emits more than half its tokens
        const jobs = runJobs(plan, docs);
        expect(jobs.rows).toEqual(expected);
        expect(jobs.counters).toEqual(kernel.counters);
      }
      const c = kernel.counters.ppjoin as Record<string, number>;
      // every posting entry met while probing is counted once: far fewer than the corpus's tokens
      expect(c.prefix_matches).toBeLessThan(tokens / 5);
      expect(c.candidates_after_signature).toBeLessThanOrEqual(expected.length + 10);
    }
    // The small documents' rarest tokens are H3's, but the length filter keeps them from ever being
    // paired with it: without the filter they become candidates.
    const withLength = await runKernel(planFor({ threshold: 0.45, shingle }), docs);
    const without = await runKernel(planFor({ threshold: 0.45, shingle, filters: { length: false } }), docs);
    expect(without.rows).toEqual(withLength.rows);
    const prefixPairs = (o: typeof without): number => (o.counters.ppjoin as Record<string, number>).candidates_after_prefix as number;
    expect(prefixPairs(without)).toBeGreaterThan(prefixPairs(withLength) + 100);
    const huge = (r: string): boolean => r.split(' ').slice(0, 2).every((d) => ['0', '151', '302'].includes(d));
    expect(all.filter((r) => Number(r.split(' ')[2]) >= 0.45).filter(huge)).toEqual(['0 151 0.9047619047619048', '0 302 0.5', '151 302 0.4634146341463415']);
  }, 180_000);
});
