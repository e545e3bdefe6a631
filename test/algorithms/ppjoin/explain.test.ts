import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/ppjoin/index.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;
const words = { unit: 'word', size: 1 };
const evidenceOf = async (texts: string[], p: Record<string, unknown>, a = 0, b = 1) =>
  (await explain.evidence(adapter.params.parse({ shingle: words, ...p }), { docs: docSet(texts), a, b, seed: 1, width: 100 })).data;

describe('PPJoin evidence, worked by hand', () => {
  it('names the length filter when the smaller set cannot reach t', async () => {
    // |x| = 10, t = 0.5: a partner needs at least 5 tokens; "a b" has 2
    const d = await evidenceOf(['a b', 'a b c d e f g h i j'], { threshold: 0.5 });
    expect(d).toMatchObject({ probing: 'B', outcome: 'rejected by the length filter', reported: false });
    expect((d.filters as { why: string }[])[0]?.why).toBe('|A| = 2 < 5, the smallest set that can reach t with |B| = 10');
  });

  it('names the prefix filter when the rarest tokens differ', async () => {
    // df: a, b 4; c, d, e, f 1: the order puts c, d (A) and e, f (B) first, a and b last.
    // |A| = |B| = 4, t = 0.5: α(4, 2) = 2, probing prefix 4 − 2 + 1 = 3; α(4, 4) = 3, indexing prefix 4 − 3 + 1 = 2.
    // B (the later document of equal size) probes with e, f and a or b; A is indexed by c, d: nothing shared.
    const d = await evidenceOf(['a b c d', 'a b e f', 'a b', 'a b x'], { threshold: 0.5 });
    expect(d).toMatchObject({ probing: 'B', probe_prefix: 3, index_prefix: 2, prefix_shared: [], common: 2, jaccard: 2 / 6, alpha: 3, outcome: 'rejected by the prefix filter' });
  });

  it('reports a pair every filter admits, with its exact Jaccard', async () => {
    // "a b c d" and "a b c e": 3 common of 5, J = 0.6 ≥ 0.5
    const d = await evidenceOf(['a b c d', 'a b c e', 'a b', 'x y'], { threshold: 0.5 });
    expect(d).toMatchObject({ common: 3, jaccard: 0.6, reported: true, score: 0.6, outcome: 'reported' });
    expect((d.filters as { filter: string; passed: boolean }[]).map((f) => [f.filter, f.passed])).toEqual([
      ['length', true],
      ['prefix', true],
      ['position', true],
      ['signature', true],
      ['verification', true],
    ]);
  });

  it.each([{}, { filters: { suffix: true } }, { filters: { prefix: false, position: false, signature: false } }])(
    'decides every pair as the run does (a second method: the plan) with %j',
    async (filters) => {
      const corpus = ['a b c d e f', 'a b c d e g', 'a b c x y z', 'a b', 'c d e f g h i', 'a b c d e f g', 'q r s'];
      const p = { threshold: 0.6, shingle: words, ...filters };
      const run = await runPlan('ppjoin', p, docSet(corpus), { engine: 'jobs' });
      expect(run.rows.length).toBeGreaterThan(0);
      const passed = new Map<string, number>();
      for (let a = 0; a < corpus.length; a++) {
        for (let b = a + 1; b < corpus.length; b++) {
          const d = await evidenceOf(corpus, p, a, b);
          for (const f of d.filters as { filter: string; passed: boolean }[]) if (f.passed) passed.set(f.filter, (passed.get(f.filter) ?? 0) + 1);
          const row = run.rows.find((r) => r.startsWith(`${a} ${b} `));
          expect(d.reported, `${a}:${b}`).toBe(row !== undefined);
          if (row) expect(Number(row.split(' ')[2])).toBe(d.score);
        }
      }
      // the pairs each filter passed are the run's candidates after it (a filter that is off passes every pair on)
      const c = run.counters['ppjoin'] ?? {};
      const prefix = passed.get('prefix') ?? passed.get('shared-token') ?? 0;
      expect(prefix).toBe(c['candidates_after_prefix']);
      expect(passed.get('position') ?? prefix).toBe(c['candidates_after_position']);
    },
  );
});
