import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/pdc-mr/index.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;
type Data = { sentences_a: number; sentences_b: number; sentence_pairs: { a: number; b: number }[]; runs: { sentence_a: number; sentence_b: number; sentences: number; a: [number, number]; b: [number, number] }[]; lone_pairs: number; score: number | null; reported: boolean };

const S = ['The board met on Monday to plan the budget.', 'It agreed to fund three new parks in the city.', 'Work starts in spring and ends next year.', 'Residents may comment until the end of May.'];

describe('PDC-MR evidence, worked by hand', () => {
  // A = S0 S1 S2 X; B = Y S0 S1 S2 S3: sentences 0..2 of A match 1..3 of B (one diagonal of 3 = γ).
  // A has 4 sentences, B 5: the shorter is A, covered 3 of 4 → 0.75.
  const a = `${S[0]} ${S[1]} ${S[2]} Nothing else was said today.`;
  const b = `Minutes of the meeting follow below. ${S[0]} ${S[1]} ${S[2]} ${S[3]}`;
  const p = adapter.params.parse({ signature: { method: 'shingles', n: 3 }, tau: 0.9, gamma: 3 });

  it('finds the run of matching sentences, its characters and the covered share', async () => {
    const d = (await explain.evidence(p, { docs: docSet([a, b]), a: 0, b: 1, seed: 1, width: 100 })).data as unknown as Data;
    expect([d.sentences_a, d.sentences_b]).toEqual([4, 5]);
    expect(d.sentence_pairs.map((x) => [x.a, x.b])).toEqual([[0, 1], [1, 2], [2, 3]]);
    expect(d.runs).toEqual([{ sentence_a: 0, sentence_b: 1, sentences: 3, a: [0, a.indexOf(' Nothing')], b: [b.indexOf('The board'), b.indexOf(' Residents')] }]);
    expect([d.score, d.reported, d.lone_pairs]).toEqual([0.75, true, 0]);
  });

  it('shows the matching sentences γ left out', async () => {
    const q = adapter.params.parse({ signature: { method: 'shingles', n: 3 }, tau: 0.9, gamma: 4 });
    const d = (await explain.evidence(q, { docs: docSet([a, b]), a: 0, b: 1, seed: 1, width: 100 })).data as unknown as Data;
    expect([d.runs, d.lone_pairs, d.score, d.reported]).toEqual([[], 3, null, false]);
  });

  it('decides every pair as the run does (a second method: the plan)', async () => {
    const corpus = [a, b, `${S[1]} ${S[2]} ${S[3]}`, `${S[3]} ${S[2]}`, 'One line only.'];
    const q = { signature: { method: 'shingles', n: 2 }, tau: 0.8, gamma: 2 };
    const run = await runPlan('pdc-mr', q, docSet(corpus), { engine: 'jobs' });
    expect(run.rows.length).toBeGreaterThan(0);
    for (let x = 0; x < corpus.length; x++) {
      for (let y = x + 1; y < corpus.length; y++) {
        const d = (await explain.evidence(adapter.params.parse(q), { docs: docSet(corpus), a: x, b: y, seed: 1, width: 100 })).data as unknown as Data;
        const row = run.rows.find((r) => r.startsWith(`${x} ${y} `));
        expect(d.reported, `${x}:${y}`).toBe(row !== undefined);
        if (row) expect(Number(row.split(' ')[2])).toBe(d.score);
      }
    }
  });
});
