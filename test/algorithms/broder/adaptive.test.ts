/**
 * Size-adaptive sampling (Ye et al. section 6) with pairs whose documents fall in different size
 * groups: both documents are compared on the sample both of them have, the coarser of their two
 * moduli applied to each. The expected scores are computed here from the definitions (sets of
 * fingerprints, sampled by hand), and the kernel and the text jobs must both give them exactly.
 */
import { describe, expect, it } from 'vitest';
import { broderParams } from '../../../algorithms/broder/params.ts';
import { fingerprintHex, fingerprintMod, fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { documentWords } from '../../../algorithms/text/word-count.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

/** Deterministic pseudo-random words (an LCG), so that every shingle is distinct. */
function randomWords(n: number, seed: number): string[] {
  let x = seed >>> 0;
  const next = (): number => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x;
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 3 + (next() % 6);
    let w = '';
    for (let k = 0; k < len; k++) w += String.fromCharCode(97 + (next() % 26));
    out.push(w);
  }
  return out;
}

const shingle = { unit: 'char', size: 16 } as const;

/** Each document's distinct fingerprints, straight from the definitions. */
function fingerprintSets(texts: readonly string[]): Uint32Array[][] {
  return texts.map((t) => {
    const seen = new Map<string, Uint32Array>();
    for (const s of charShingles(normalize(t), shingle.size)) {
      const fp = fingerprintOf(s, 'rabin64');
      seen.set(fingerprintHex(fp, 0, 2), fp);
    }
    return [...seen.values()];
  });
}

/** The expected rows: every pair sampled at the larger of the two documents' moduli. */
function naiveAdaptive(texts: readonly string[], modulusOf: (d: number, fingerprints: number) => number): string[] {
  const sets = fingerprintSets(texts);
  const rows: string[] = [];
  for (let a = 0; a < texts.length; a++) {
    for (let b = a + 1; b < texts.length; b++) {
      const m = Math.max(modulusOf(a, (sets[a] as Uint32Array[]).length), modulusOf(b, (sets[b] as Uint32Array[]).length));
      const sample = (d: number): Set<string> =>
        new Set((sets[d] as Uint32Array[]).filter((fp) => fingerprintMod(fp, 0, 2, m) === 0).map((fp) => fingerprintHex(fp, 0, 2)));
      const A = sample(a);
      const B = sample(b);
      let common = 0;
      for (const x of A) if (B.has(x)) common++;
      if (common > 0) rows.push(`${a} ${b} ${common / (A.size + B.size - common)}`);
    }
  }
  return rows.sort();
}

describe('adaptive sampling across size groups', () => {
  // Word groups 0–60, 61–120, 121–240, 241+ with moduli 1, 2, 4, 8. For every boundary, texts a
  // few words below it and the same texts with words added that take them above it, and one
  // pair straddling two boundaries.
  const groups = [
    { max_size: 60, m: 1 },
    { max_size: 120, m: 2 },
    { max_size: 240, m: 4 },
    { max_size: null, m: 8 },
  ];
  const bounds = [60, 120, 240];
  const texts: string[] = [];
  bounds.forEach((bound, i) => {
    for (let k = 0; k < 3; k++) {
      const base = randomWords(bound - 4 + k, 100 * i + k + 1);
      texts.push(base.join(' '));
      texts.push([...base, ...randomWords(8, 1000 + 100 * i + k)].join(' '));
    }
  });
  const wide = randomWords(110, 77);
  texts.push(wide.join(' '), [...wide, ...randomWords(140, 78)].join(' '));
  const docs = docSet(texts);
  const words = texts.map(documentWords);
  const modulusOfWords = (d: number): number => (groups.find((g) => g.max_size === null || (words[d] as number) <= g.max_size) as { m: number }).m;

  it('puts the documents on both sides of every boundary', () => {
    for (const bound of bounds) {
      expect(words.some((w) => w <= bound && w > bound - 8)).toBe(true);
      expect(words.some((w) => w > bound && w <= bound + 8)).toBe(true);
    }
  });

  it.each(['auto', 'jobs'] as const)('scores every pair on the coarser sample of the two (%s)', async (engine) => {
    const r = await runPlan('broder', { shingle, sampling: { method: 'adaptive', by: 'words', groups } }, docs, { engine });
    const expected = naiveAdaptive(texts, (d) => modulusOfWords(d));
    expect(r.rows).toEqual(expected);
    // Every pair of the corpus straddles a boundary, and every one of them is found.
    expect(expected).toHaveLength(bounds.length * 3 + 1);
    for (const row of expected) {
      const [a, b] = row.split(' ').map(Number) as [number, number];
      expect(modulusOfWords(a)).not.toBe(modulusOfWords(b));
    }
  });

  it('groups by distinct fingerprints too, kernel and jobs alike', async () => {
    const byFp = [
      { max_size: 80, m: 2 },
      { max_size: 200, m: 4 },
      { max_size: null, m: 16 },
    ];
    const params = { shingle, sampling: { method: 'adaptive', groups: byFp } };
    const jobs = await runPlan('broder', params, docs, { engine: 'jobs' });
    const kernel = await runPlan('broder', params, docs, { engine: 'auto', workers: 2 });
    const expected = naiveAdaptive(texts, (_d, size) => (byFp.find((g) => g.max_size === null || size <= g.max_size) as { m: number }).m);
    expect(jobs.rows).toEqual(expected);
    expect(kernel.rows).toEqual(expected);
    expect(kernel.counters).toEqual(jobs.counters);
  });

  it('counts each group’s fingerprints and the ones kept, in kernel and jobs alike', async () => {
    const params = { shingle, sampling: { method: 'adaptive', by: 'words', groups } };
    const jobs = await runPlan('broder', params, docs, { engine: 'jobs' });
    const kernel = await runPlan('broder', params, docs, { engine: 'auto' });
    expect(kernel.counters).toEqual(jobs.counters);
    const sets = fingerprintSets(texts);
    const c = jobs.counters['mr1-shingle-pairs'] as Record<string, number>;
    groups.forEach((g, i) => {
      const members = texts.map((_, d) => d).filter((d) => modulusOfWords(d) === g.m);
      const full = members.reduce((s, d) => s + (sets[d] as Uint32Array[]).length, 0);
      const kept = members.reduce((s, d) => s + (sets[d] as Uint32Array[]).filter((fp) => fingerprintMod(fp, 0, 2, g.m) === 0).length, 0);
      expect(c[`group_${i}_fingerprints`]).toBe(full);
      expect(c[`group_${i}_fingerprints_kept`]).toBe(kept);
    });
  });

  it('estimates a 600-word text against itself plus 20 words near its true resemblance (the issue’s case)', async () => {
    // Forty such pairs with the group boundary at 600 words: m = 2 below it, m = 16 above.
    const pairTexts: string[] = [];
    for (let k = 0; k < 40; k++) {
      const base = randomWords(600, 5000 + k);
      pairTexts.push(base.join(' '), [...base, ...randomWords(20, 9000 + k)].join(' '));
    }
    const sampling = { method: 'adaptive', by: 'words', groups: [{ max_size: 600, m: 2 }, { max_size: null, m: 16 }] };
    const full = await runPlan('broder', { shingle: { unit: 'char', size: 64 } }, docSet(pairTexts), { engine: 'auto', workers: 2 });
    const adaptive = await runPlan('broder', { shingle: { unit: 'char', size: 64 }, sampling }, docSet(pairTexts), { engine: 'auto', workers: 2 });
    const score = (rows: string[], a: number): number => Number(rows.find((r) => r.startsWith(`${a} ${a + 1} `))?.split(' ')[2] ?? 0);
    let truth = 0;
    let estimate = 0;
    for (let k = 0; k < 40; k++) {
      truth += score(full.rows, 2 * k) / 40;
      estimate += score(adaptive.rows, 2 * k) / 40;
      // every pair stays a near-duplicate at 0.5 (pair recall 1.0, as plain m = 2 or 16 gives)
      expect(score(adaptive.rows, 2 * k)).toBeGreaterThanOrEqual(0.5);
    }
    expect(truth).toBeGreaterThan(0.96);
    expect(Math.abs(estimate - truth)).toBeLessThan(0.03);
  });
});

describe('sampling parameters', () => {
  const issues = (sampling: unknown): string[] => {
    const r = broderParams.safeParse({ sampling });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('refuses a residue that is not below m', () => {
    expect(issues({ method: 'mod', m: 2, residue: 5 })).toEqual(['sampling.residue: must be below m (2): fp mod 2 is never 5, so nothing would be kept']);
    expect(issues({ method: 'mod', m: 2, residue: 2 })).toHaveLength(1);
    expect(issues({ method: 'mod', m: 2, residue: 1 })).toEqual([]);
  });

  it('refuses adaptive moduli that do not divide one another, and unsorted groups', () => {
    expect(issues({ method: 'adaptive', groups: [{ max_size: 10, m: 3 }, { m: 4 }] })).toEqual([
      'sampling.groups: moduli of the groups must divide one another (as 2, 4, 8, 16 do): 3 does not divide 4, so documents sampled with them share no common sample',
    ]);
    expect(issues({ method: 'adaptive', groups: [{ max_size: 10, m: 2 }, { max_size: 5, m: 4 }, { m: 8 }] })).toEqual([
      'sampling.groups.1.max_size: groups must be in increasing max_size: 5 follows 10',
    ]);
    expect(issues({ method: 'adaptive', groups: [{ m: 2 }, { max_size: 5, m: 4 }] })).toEqual(['sampling.groups.0.max_size: only the last group may be unbounded (max_size null)']);
    expect(issues({ method: 'adaptive', groups: [{ max_size: 10, m: 4 }, { m: 2 }] })).toEqual([]);
  });

  it('refuses a precision target or threshold outside (0, 1]', () => {
    expect(issues({ method: 'adaptive-target', precision: 0, threshold: 0.6 })).toEqual(['sampling.precision: a precision target must be in (0, 1]']);
    expect(issues({ method: 'adaptive-target', precision: 1.2, threshold: 0.6 })).toEqual(['sampling.precision: a precision target must be in (0, 1]']);
    expect(issues({ method: 'adaptive-target', precision: 0.8, threshold: 0 })).toEqual(['sampling.threshold: a similarity threshold must be in (0, 1]']);
    expect(issues({ method: 'adaptive-target', precision: 1, threshold: 1 })).toEqual([]);
  });
});
