import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/spotsigs/index.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;
type Data = { antecedents: string[]; signatures_a: number; signatures_b: number; shared: { chain: string; a: [number, number] }[]; jaccard: number; reported: boolean; score: number | null };

describe('SpotSigs evidence, worked by hand', () => {
  // antecedents = 2: "the" (in 3 documents) and "a" (in 2). Chains of c = 2, d = 1:
  // A "The cat sat on a mat by the door": the:cat:sat, a:mat:by, the:door? (one word left: none) → {the:cat:sat, a:mat:by}
  // B "the cat sat near a mat": the:cat:sat, a:mat? (none) → {the:cat:sat}
  // shared 1; Jaccard 1 / (2 + 1 − 1) = 0.5
  const texts = ['The cat sat on a mat by the door', 'the cat sat near a mat', 'the end'];
  const p = adapter.params.parse({ antecedents: 2, chain: 2, distance: 1, tau: 0.5 });

  it('names the chains the two share and where they are', async () => {
    const d = (await explain.evidence(p, { docs: docSet(texts), a: 0, b: 1, seed: 1, width: 100 })).data as unknown as Data;
    expect(d.antecedents).toEqual(['the', 'a']);
    expect([d.signatures_a, d.signatures_b, d.jaccard, d.reported]).toEqual([2, 1, 0.5, true]);
    expect(d.shared).toEqual([{ chain: 'the:cat:sat', a: [0, 11], b: [0, 11] }]);
    expect(texts[0]!.slice(0, 11)).toBe('The cat sat');
  });

  it('decides every pair as the run does (a second method: the plan)', async () => {
    const corpus = ['the cat sat on the mat and the dog ran', 'the cat sat on the mat and the dog sat', 'a dog and the cat', 'the end of the story is near', 'the cat sat on a mat', 'nothing here'];
    const q = { antecedents: 3, tau: 0.3 };
    const run = await runPlan('spotsigs', q, docSet(corpus), { engine: 'jobs' });
    expect(run.rows.length).toBeGreaterThan(0);
    for (let a = 0; a < corpus.length; a++) {
      for (let b = a + 1; b < corpus.length; b++) {
        const d = (await explain.evidence(adapter.params.parse(q), { docs: docSet(corpus), a, b, seed: 1, width: 100 })).data as unknown as Data;
        const row = run.rows.find((r) => r.startsWith(`${a} ${b} `));
        expect(d.reported, `${a}:${b}`).toBe(row !== undefined);
        if (row) expect(Number(row.split(' ')[2])).toBe(d.score);
      }
    }
  });
});
