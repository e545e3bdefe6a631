import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/simhash/index.ts';
import { hashFeature, hashSeeds } from '../../../algorithms/simhash/feature-hash.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;

/** The 64 bits of a feature's hash, bit 0 the most significant, read through BigInt (not the code's shifts). */
function bits(word: string, seed: number): number[] {
  const h = new Uint32Array(2);
  hashFeature(word, 0, word.length, hashSeeds(seed), h, 0);
  const v = (BigInt(h[0] as number) << 32n) | BigInt(h[1] as number);
  return Array.from({ length: 64 }, (_, j) => Number((v >> BigInt(63 - j)) & 1n));
}

describe('simhash evidence, worked by hand', () => {
  // Corpus: A "apple banana apple", B "apple cherry", C "banana". df: apple 2, banana 2, cherry 1.
  // Weights tf × 1/df: A {apple 2/2 = 1, banana 1/2}, B {apple 1/2, cherry 1}.
  const texts = ['apple banana apple', 'apple cherry', 'banana'];
  const seed = 7;
  const weights = [
    { apple: 1, banana: 0.5 },
    { apple: 0.5, cherry: 1 },
  ];
  const sums = weights.map((w) => Array.from({ length: 64 }, (_, j) => Object.entries(w).reduce((s, [word, x]) => s + (bits(word, seed)[j] === 1 ? x : -x), 0)));
  const fp = sums.map((s) => s.map((x) => (x > 0 ? 1 : 0)));
  const differing = Array.from({ length: 64 }, (_, j) => j).filter((j) => fp[0]![j] !== fp[1]![j]);

  it('finds the bits that differ, the distance and the decision at k', async () => {
    for (const k of [0, differing.length, 64]) {
      const e = await explain.evidence(adapter.params.parse({ k }), { docs: docSet(texts), a: 0, b: 1, seed, width: 100 });
      expect(e.data).toMatchObject({ distance: differing.length, differing_bits: differing, within_k: differing.length <= k, score: 1 - differing.length / 64, features_a: 2, features_b: 2, features_in_both: 1 });
    }
  });

  it('names the features that pushed each side of a differing bit, with their sums', async () => {
    const e = await explain.evidence(adapter.params.parse({ k: 3 }), { docs: docSet(texts), a: 0, b: 1, seed, width: 100 });
    const shown = e.data.bits_shown as { bit: number; a: { bit: number; sum: number; pushed_by: { feature: string; weight: number }[] }; b: { bit: number; sum: number; pushed_by: { feature: string }[] } }[];
    expect(shown.length).toBe(Math.min(6, differing.length));
    for (const s of shown) {
      expect(s.a.bit).toBe(fp[0]![s.bit]);
      expect(s.a.sum).toBeCloseTo(sums[0]![s.bit]!, 12);
      expect(s.b.sum).toBeCloseTo(sums[1]![s.bit]!, 12);
      // A's pushers are its words whose hash bit equals A's bit there, heaviest first
      const expected = Object.entries(weights[0]!)
        .filter(([word]) => bits(word, seed)[s.bit] === s.a.bit)
        .sort((x, y) => y[1] - x[1])
        .map(([feature, weight]) => ({ feature, weight }));
      expect(s.a.pushed_by).toEqual(expected);
    }
    expect(e.data.heaviest_a).toEqual([
      { feature: 'apple', weight: 1, in_other: true },
      { feature: 'banana', weight: 0.5, in_other: false },
    ]);
    expect(e.lines.every((l) => l.length <= 100)).toBe(true);
  });

  it('gives the fingerprints the run wrote (a second method: the plan itself)', async () => {
    const corpus = ['the cat sat on the mat', 'the cat sat on a mat', 'a dog ran in the park', 'the cat sat on the mat again', 'dogs and cats'];
    const run = await runPlan('simhash', { k: 64 }, docSet(corpus), { engine: 'auto', seed: 3 });
    const signatures = new Map((run.outputs.tables?.['simhash-signatures'] ?? Object.values(run.outputs.tables ?? {})[0] ?? []).map(([doc, hex]) => [Number(doc), hex]));
    for (const [a, b] of [[0, 1], [2, 3], [0, 4]] as const) {
      const e = await explain.evidence(adapter.params.parse({ k: 64 }), { docs: docSet(corpus), a, b, seed: 3, width: 100 });
      expect([e.data.fingerprint_a, e.data.fingerprint_b]).toEqual([signatures.get(a), signatures.get(b)]);
      const row = run.rows.find((r) => r.startsWith(`${a} ${b} `));
      expect(Number(row?.split(' ')[2])).toBe(e.data.score);
    }
  });
});
