import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/broder/index.ts';
import fc from 'fast-check';
import { fingerprintHex, fingerprintMod, fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;
const ctxOf = (texts: string[], a = 0, b = 1) => ({ docs: docSet(texts), a, b, seed: 1, width: 100 });
const params = (sampling: unknown) => adapter.params.parse({ shingle: { unit: 'char', size: 5 }, sampling });

// "ab cd ef gh", n = 5: A = {ab cd, cd ef, ef gh}; "ab cd ef xy": B = {ab cd, cd ef, ef xy};
// shared {ab cd, cd ef}, RR 2/4.
const pair = ['ab cd ef gh', 'ab cd ef xy'];

describe('Broder evidence, worked by hand', () => {
  it('without sampling, counts every shared fingerprint: 2 / (3 + 3 − 2)', async () => {
    const e = await explain.evidence(params({ method: 'none' }), ctxOf(pair));
    expect(e.data).toMatchObject({ shared: 2, kept: 2, dropped: 0, size_a: 3, size_b: 3, score: 0.5 });
  });

  it('with mod sampling, keeps the shared fingerprints whose residue is the one kept, and scores the sampled sets', async () => {
    const m = 2;
    const residue = (s: string): number => fingerprintMod(fingerprintOf(s, 'rabin64'), 0, 2, m);
    const A = ['ab cd', 'cd ef', 'ef gh'];
    const B = ['ab cd', 'cd ef', 'ef xy'];
    for (const r of [0, 1]) {
      const keptShared = ['ab cd', 'cd ef'].filter((s) => residue(s) === r).length;
      const sa = A.filter((s) => residue(s) === r).length;
      const sb = B.filter((s) => residue(s) === r).length;
      const e = await explain.evidence(params({ method: 'mod', m, residue: r }), ctxOf(pair));
      expect(e.data).toMatchObject({ shared: 2, kept: keptShared, size_a: sa, size_b: sb, score: sa + sb - keptShared === 0 ? null : keptShared / (sa + sb - keptShared) });
      const shownResidues = [...(e.data.kept_examples as { residue: number }[]), ...(e.data.dropped_examples as { residue: number }[])].map((x) => x.residue);
      expect(shownResidues.sort()).toEqual(['ab cd', 'cd ef'].map(residue).sort());
    }
  });

  it('with SCT, drops a shared fingerprint held by more documents than the threshold, and says by how many', async () => {
    // "ab cd" is in all four documents, "cd ef" in the first two: SCT 3 drops "ab cd".
    const texts = [...pair, 'ab cd zz', 'ab cd qq'];
    const e = await explain.evidence(params({ method: 'sct', threshold: 3 }), ctxOf(texts));
    expect(e.data).toMatchObject({ shared: 2, kept: 1, dropped: 1, size_a: 3, size_b: 3, score: 1 / 5 });
    expect(e.data.dropped_examples).toEqual([{ fingerprint: expect.any(String), start_a: 0, end_a: 5, documents: 4 }]);
    expect(e.data.kept_examples).toEqual([{ fingerprint: expect.any(String), start_a: 3, end_a: 8, documents: 2 }]);
    expect(e.lines.some((l) => l.includes('"ab cd"') && l.includes('documents 4'))).toBe(true);
    expect(e.lines.every((l) => l.length <= 100)).toBe(true);
  });

  it('gives the score the run gives, for every sampling (a second method: the plan itself)', async () => {
    const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat'];
    for (const sampling of [{ method: 'none' }, { method: 'mod', m: 2 }, { method: 'mod', m: 3, residue: 1 }, { method: 'sct', threshold: 2 }]) {
      const p = params(sampling);
      const run = await runPlan('broder', { shingle: { unit: 'char', size: 5 }, sampling }, docSet(texts), { engine: 'auto' });
      for (let a = 0; a < texts.length; a++) {
        for (let b = a + 1; b < texts.length; b++) {
          const e = await explain.evidence(p, ctxOf(texts, a, b));
          const row = run.rows.find((r) => r.startsWith(`${a} ${b} `));
          const score = e.data.score as number | null;
          expect(row ? Number(row.split(' ')[2]) : 0, `${JSON.stringify(sampling)} ${a}:${b}`).toBeCloseTo(score ?? 0, 12);
        }
      }
    }
  });

  it("gives the same evidence through a run's shared cache, across variants and pairs, as computed alone", async () => {
    const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat'];
    const shared = new Map<string, unknown>();
    const cached = <T>(key: string, compute: () => T): T => {
      if (!shared.has(key)) shared.set(key, compute());
      return shared.get(key) as T;
    };
    // Variants of one shingling in turn, as a run's error files ask: each pair once a variant.
    for (const sampling of [{ method: 'mod', m: 2 }, { method: 'mod', m: 4 }, { method: 'mod', m: 3, residue: 1 }, { method: 'sct', threshold: 2 }, { method: 'sct', threshold: 3 }, { method: 'none' }]) {
      for (let a = 0; a < texts.length; a++) {
        for (let b = a + 1; b < texts.length; b++) {
          const alone = await explain.evidence(params(sampling), ctxOf(texts, a, b));
          const through = await explain.evidence(params(sampling), { ...ctxOf(texts, a, b), cached });
          expect(through, `${JSON.stringify(sampling)} ${a}:${b}`).toEqual(alone);
        }
      }
    }
    expect(shared.size).toBeGreaterThan(0);
  });

  it('shows the first five kept and dropped shared fingerprints: in the order of A, or by documents for SCT (brute force)', async () => {
    // texts already normalized (a–c words, single spaces): the original offsets are the normalized ones
    const word = fc.constantFrom('ab', 'cd', 'ef', 'ab', 'cd', 'ba', 'ca');
    const doc = fc.array(word, { minLength: 3, maxLength: 30 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 2, maxLength: 6 }), fc.constantFrom<unknown>({ method: 'none' }, { method: 'mod', m: 2 }, { method: 'mod', m: 3, residue: 2 }, { method: 'sct', threshold: 1 }, { method: 'sct', threshold: 3 }), async (texts, sampling) => {
        const size = 5;
        const shingles = (t: string): { s: string; at: number }[] => {
          const out: { s: string; at: number }[] = [];
          for (let i = 0; i + size <= t.length; i++) if (i === 0 || t[i - 1] === ' ') out.push({ s: t.slice(i, i + size), at: i });
          return out;
        };
        const sets = texts.map((t) => new Set(shingles(t).map((x) => x.s)));
        const firstInA = new Map<string, number>();
        for (const x of shingles(texts[0]!)) if (!firstInA.has(x.s)) firstInA.set(x.s, x.at);
        const shared = [...firstInA].filter(([s]) => sets[1]!.has(s));
        const sp = sampling as { method: string; m?: number; residue?: number; threshold?: number };
        const documents = (s: string): number => sets.filter((set) => set.has(s)).length;
        const value = (s: string): number => (sp.method === 'sct' ? documents(s) : sp.method === 'mod' ? fingerprintMod(fingerprintOf(s, 'rabin64'), 0, 2, sp.m!) : 0);
        const kept = (s: string): boolean => (sp.method === 'sct' ? documents(s) <= sp.threshold! : sp.method === 'mod' ? value(s) === (sp.residue ?? 0) : true);
        const example = ([s, at]: [string, number]) => ({ fingerprint: fingerprintHex(fingerprintOf(s, 'rabin64'), 0, 2), start_a: at, end_a: at + size, ...(sp.method === 'sct' ? { documents: value(s) } : sp.method === 'mod' ? { residue: value(s) } : {}) });
        const order = (xs: [string, number][]) => [...xs].sort((x, y) => (sp.method === 'sct' ? value(y[0]) - value(x[0]) : 0) || x[1] - y[1]);
        const e = await explain.evidence(params(sampling), ctxOf(texts));
        expect(e.data.kept_examples).toEqual(order(shared.filter(([s]) => kept(s))).slice(0, 5).map(example));
        expect(e.data.dropped_examples).toEqual(order(shared.filter(([s]) => !kept(s))).slice(0, 5).map(example));
      }),
      { numRuns: 300 },
    );
  });
});
