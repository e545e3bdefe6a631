import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/minhash/index.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;
const base = { shingle: { unit: 'word', size: 2 }, permutations: 16, bands: 8, rows: 2 };
const corpus = [
  'the cat sat on the mat and looked at the dog',
  'the cat sat on the mat and looked at a dog',
  'the cat sat on a rug and looked at the bird',
  'completely different words in this one here',
  'the cat sat on the mat and looked at the dog',
];
const ctx = (a: number, b: number) => ({ docs: docSet(corpus), a, b, seed: 5, width: 100 });

describe('MinHash-LSH evidence', () => {
  it('gives two copies every band, every slot and an estimate of 1', () => {
    const e = explain.evidence(adapter.params.parse(base), ctx(0, 4)) as Awaited<ReturnType<typeof explain.evidence>>;
    expect(e.data).toMatchObject({ colliding_bands: [0, 1, 2, 3, 4, 5, 6, 7], matching_slots: 16, estimate: 1, exact_jaccard: 1, candidate_chance: 1, reported: true });
  });

  it('gives the exact Jaccard of the fingerprint sets, worked by hand, and the chance of a collision at it', () => {
    // word 2-shingles: 10 of doc 0 ("the cat" … "the dog"), doc 1 the same with "at a", "a dog" for "at the", "the dog":
    // 8 shared of 12 distinct
    const e = explain.evidence(adapter.params.parse(base), ctx(0, 1)) as Awaited<ReturnType<typeof explain.evidence>>;
    expect(e.data).toMatchObject({ fingerprints_a: 10, fingerprints_b: 10, fingerprints_shared: 8, exact_jaccard: 8 / 12 });
    expect(e.data.candidate_chance).toBeCloseTo(1 - (1 - (8 / 12) ** 2) ** 8, 12);
    const bands = e.data.colliding_bands as number[];
    expect(e.data.candidate).toBe(bands.length > 0);
  });

  it.each(['estimated', 'exact', 'none'] as const)('reports the pairs the run reports, with its scores (verify: %s)', async (verify) => {
    const p = { ...base, verify, threshold: 0.3 };
    const run = await runPlan('minhash', p, docSet(corpus), { engine: 'auto', seed: 5 });
    expect(run.rows.length).toBeGreaterThan(1);
    for (let a = 0; a < corpus.length; a++) {
      for (let b = a + 1; b < corpus.length; b++) {
        const e = (await explain.evidence(adapter.params.parse(p), ctx(a, b))) as Awaited<ReturnType<typeof explain.evidence>>;
        const row = run.rows.find((r) => r.startsWith(`${a} ${b} `));
        expect(e.data.reported, `${a}:${b}`).toBe(row !== undefined);
        if (row) expect(Number(row.split(' ')[2])).toBe(e.data.score);
      }
    }
  });
});
