import { sampleCorrelation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import type { PairList } from '../../../contract/index.ts';
import { compareWithTruth } from '../../../harness/evaluate/compare.ts';
import { pairList, randomPairs, seededRandom } from './pairs.ts';

const opts = { minScore: 0.1, threshold: 0.5 };

// Seven documents 0..6. Listed out of order on purpose.
const truth = pairList([
  [4, 5, 0.7],
  [0, 1, 0.9],
  [2, 5, 0.05],
  [0, 2, 0.6],
  [5, 6, 0.55],
  [1, 2, 0.5],
  [3, 4, 0.3],
]);
const run = pairList([
  [3, 6, 0.12],
  [1, 2, 0.5],
  [0, 1, 0.8],
  [5, 6, 0.2],
  [2, 5, 0.08],
  [3, 4, 0.6],
  [0, 2, 0.4],
]);
// The union, G and S (0 where unreported), |G−S|, in P (G ≥ 0.1 or S ≥ 0.1)?
//   (0,1) 0.9  0.8   0.1   yes
//   (0,2) 0.6  0.4   0.2   yes
//   (1,2) 0.5  0.5   0     yes
//   (3,4) 0.3  0.6   0.3   yes
//   (2,5) 0.05 0.08  -     no: both below 0.1
//   (4,5) 0.7  0     0.7   yes (the run missed it)
//   (5,6) 0.55 0.2   0.35  yes
//   (3,6) 0    0.12  0.12  yes (the truth does not have it)
// |P| = 7; Σ|G−S| = 0.1+0.2+0+0.3+0.7+0.35+0.12 = 1.77 → average error 1.77/7
// Pearson over P, n = 7:
//   ΣG = 0.9+0.6+0.5+0.3+0.7+0.55+0 = 3.55      ΣG² = 0.81+0.36+0.25+0.09+0.49+0.3025 = 2.3025
//   ΣS = 0.8+0.4+0.5+0.6+0+0.2+0.12 = 2.62      ΣS² = 0.64+0.16+0.25+0.36+0.04+0.0144 = 1.4644
//   ΣGS = 0.72+0.24+0.25+0.18+0+0.11+0 = 1.5
//   7·Sxy = 7·1.5 − 3.55·2.62 = 10.5 − 9.301 = 1.199
//   7·Sxx = 7·2.3025 − 3.55² = 16.1175 − 12.6025 = 3.515
//   7·Syy = 7·1.4644 − 2.62² = 10.2508 − 6.8644 = 3.3864
//   r = 1.199 / √(3.515 · 3.3864) ≈ 0.3475
// Threshold 0.5 (inclusive):
//   Dup = {(0,1), (0,2), (1,2), (4,5), (5,6)}  Res = {(0,1), (1,2), (3,4)}  Dup∩Res = {(0,1), (1,2)}
//   precision 2/3, recall 2/5, F1 = 2·(2/3)(2/5) / (2/3 + 2/5) = (8/15)/(16/15) = 1/2
//   Dup docs = {0,1,2,4,5,6}  Res docs = {0,1,2,3,4}  ∩ = {0,1,2,4}: precision 4/5, recall 4/6
describe('compareWithTruth on a hand-worked example', () => {
  const c = compareWithTruth(truth, run, 7, opts);

  it('counts P and averages |G − S| over it', () => {
    expect(c.pairsCompared).toBe(7);
    expect(c.avgError).toBeCloseTo(1.77 / 7, 12);
  });

  it('computes Pearson r over P', () => {
    expect(c.correlation).toBeCloseTo(1.199 / Math.sqrt(3.515 * 3.3864), 12);
  });

  it('computes precision, recall and F1 over pairs', () => {
    expect(c.truthPairs).toBe(5);
    expect(c.runPairs).toBe(3);
    expect(c.precisionPairs).toBeCloseTo(2 / 3, 12);
    expect(c.recallPairs).toBeCloseTo(2 / 5, 12);
    expect(c.f1Pairs).toBeCloseTo(1 / 2, 12);
  });

  it('computes precision and recall over documents', () => {
    expect(c.precisionDocs).toBeCloseTo(4 / 5, 12);
    expect(c.recallDocs).toBeCloseTo(4 / 6, 12);
  });

  it('has no warnings', () => {
    expect(c.warnings).toEqual([]);
  });

  it('tells `wrong` of the pairs it counts wrong, in (a, b) order: Res∖Dup as false positives, Dup∖Res as false negatives', () => {
    const told: (string | number | null)[][] = [];
    compareWithTruth(truth, run, 7, {
      ...opts,
      wrong: {
        falsePositive: (a, b, score, g) => told.push(['fp', a, b, score, g]),
        falseNegative: (a, b, score, g) => told.push(['fn', a, b, score, g]),
      },
    });
    // Res∖Dup = {(3,4)}; Dup∖Res = {(0,2), (4,5), (5,6)}: (4,5) unreported by the run, so no score
    expect(told).toEqual([
      ['fn', 0, 2, 0.4, 0.6],
      ['fp', 3, 4, 0.6, 0.3],
      ['fn', 4, 5, null, 0.7],
      ['fn', 5, 6, 0.2, 0.55],
    ]);
  });
});

describe('compareWithTruth', () => {
  it('gives perfect scores when the run is the ground truth', () => {
    const c = compareWithTruth(truth, truth, 7, opts);
    expect(c).toEqual({
      pairsCompared: 6,
      avgError: 0,
      correlation: 1,
      precisionPairs: 1,
      recallPairs: 1,
      f1Pairs: 1,
      precisionDocs: 1,
      recallDocs: 1,
      truthPairs: 5,
      runPairs: 5,
      warnings: [],
      notApplicable: {},
    });
  });

  it('does not depend on the order of the lists', () => {
    const reversed = (l: PairList): PairList => ({
      a: l.a.slice().reverse(),
      b: l.b.slice().reverse(),
      score: l.score.slice().reverse(),
    });
    expect(compareWithTruth(reversed(truth), reversed(run), 7, opts)).toEqual(compareWithTruth(truth, run, 7, opts));
  });

  it('puts a pair in P when either score reaches minScore, not when both are below', () => {
    const g = pairList([[0, 1, 0.05]]);
    expect(compareWithTruth(g, pairList([[0, 1, 0.08]]), 2, opts).pairsCompared).toBe(0);
    expect(compareWithTruth(g, pairList([[0, 1, 0.12]]), 2, opts).pairsCompared).toBe(1);
    expect(compareWithTruth(g, pairList([[0, 1, 0.12]]), 2, opts).avgError).toBeCloseTo(0.07, 12);
    expect(compareWithTruth(pairList([[0, 1, 0.1]]), pairList([]), 2, opts).pairsCompared).toBe(1);
  });

  it('leaves precision and F1 empty with a warning when the run has no pair at the threshold', () => {
    const c = compareWithTruth(truth, pairList([[0, 1, 0.49]]), 7, opts);
    expect(c.runPairs).toBe(0);
    expect(c.precisionPairs).toBeNull();
    expect(c.precisionDocs).toBeNull();
    expect(c.f1Pairs).toBeNull();
    expect(c.recallPairs).toBe(0);
    expect(c.recallDocs).toBe(0);
    expect(c.warnings).toEqual([
      'precision_pairs: undefined, the run has no pair with score >= 0.5 (|Res| = 0)',
      'f1_pairs: undefined, precision_pairs is undefined',
      'precision_docs: undefined, the run has no pair with score >= 0.5 (|Res| = 0)',
    ]);
  });

  it('leaves recall and F1 empty with a warning when the ground truth has no pair at the threshold', () => {
    const c = compareWithTruth(pairList([[0, 1, 0.3]]), pairList([[0, 1, 0.6]]), 2, opts);
    expect(c.truthPairs).toBe(0);
    expect(c.recallPairs).toBeNull();
    expect(c.recallDocs).toBeNull();
    expect(c.f1Pairs).toBeNull();
    expect(c.precisionPairs).toBe(0);
    expect(c.precisionDocs).toBe(0);
    expect(c.warnings).toEqual([
      'correlation: undefined, the scores are constant over the 1 pairs of P (zero variance)',
      'recall_pairs: undefined, the ground truth has no pair with score >= 0.5 (|Dup| = 0)',
      'f1_pairs: undefined, recall_pairs is undefined',
      'recall_docs: undefined, the ground truth has no pair with score >= 0.5 (|Dup| = 0)',
    ]);
  });

  it('leaves average error and correlation empty with a warning when P is empty', () => {
    const c = compareWithTruth(pairList([[0, 1, 0.05]]), pairList([]), 3, opts);
    expect(c.pairsCompared).toBe(0);
    expect(c.avgError).toBeNull();
    expect(c.correlation).toBeNull();
    expect(c.warnings.slice(0, 2)).toEqual([
      'avg_error: undefined, no pair has a ground-truth or run score >= 0.1 (|P| = 0)',
      'correlation: undefined, no pair has a ground-truth or run score >= 0.1 (|P| = 0)',
    ]);
  });

  it('leaves the correlation empty with a warning when one side is constant over P', () => {
    const g = pairList([
      [0, 1, 0.6],
      [1, 2, 0.6],
      [0, 2, 0.6],
    ]);
    const s = pairList([
      [0, 1, 0.5],
      [1, 2, 0.7],
      [0, 2, 0.9],
    ]);
    const c = compareWithTruth(g, s, 3, opts);
    expect(c.correlation).toBeNull();
    expect(c.avgError).toBeCloseTo((0.1 + 0.1 + 0.3) / 3, 12);
    expect(c.warnings).toEqual([
      'correlation: undefined, the ground-truth scores are constant over the 3 pairs of P (zero variance)',
    ]);
    expect(compareWithTruth(s, g, 3, opts).warnings).toEqual([
      'correlation: undefined, the run scores are constant over the 3 pairs of P (zero variance)',
    ]);
  });

  it('gives F1 = 0, not empty, when precision and recall are both 0', () => {
    const c = compareWithTruth(pairList([[0, 1, 0.9]]), pairList([[1, 2, 0.9]]), 3, opts);
    expect(c.precisionPairs).toBe(0);
    expect(c.recallPairs).toBe(0);
    expect(c.f1Pairs).toBe(0);
  });

  it('counts a document once however many pairs it is in', () => {
    // Dup docs {0,1,2,3}; Res docs {0,1,2}: pair-level precision is 0 but doc-level is 1
    const g = pairList([
      [0, 3, 0.9],
      [1, 3, 0.9],
      [2, 3, 0.9],
    ]);
    const s = pairList([
      [0, 1, 0.9],
      [0, 2, 0.9],
      [1, 2, 0.9],
    ]);
    const c = compareWithTruth(g, s, 5, opts);
    expect(c.precisionPairs).toBe(0);
    expect(c.precisionDocs).toBe(1);
    expect(c.recallDocs).toBeCloseTo(3 / 4, 12);
  });

  it('throws on a duplicate pair in either list', () => {
    const dup = pairList([
      [0, 1, 0.5],
      [0, 1, 0.5],
    ]);
    expect(() => compareWithTruth(dup, run, 7, opts)).toThrow('ground truth: pair (0, 1) occurs more than once');
    expect(() => compareWithTruth(truth, dup, 7, opts)).toThrow('run: pair (0, 1) occurs more than once');
  });

  it('throws on options out of (0, 1]', () => {
    expect(() => compareWithTruth(truth, run, 7, { minScore: 0, threshold: 0.5 })).toThrow('minScore 0 is not in (0, 1]');
    expect(() => compareWithTruth(truth, run, 7, { minScore: 0.1, threshold: Number.NaN })).toThrow(
      'threshold NaN is not in (0, 1]',
    );
  });

  it('agrees with a direct, map-based computation on random lists', () => {
    const random = seededRandom(11);
    const nDocs = 60;
    for (let trial = 0; trial < 5; trial++) {
      const t = randomPairs(400, nDocs, random, random);
      const r = randomPairs(400, nDocs, random, random);
      const expected = reference(t, r, nDocs);
      const c = compareWithTruth(t, r, nDocs, opts);
      expect(c.pairsCompared).toBe(expected.g.length);
      expect(c.avgError).toBeCloseTo(expected.avgError, 12);
      expect(c.correlation).toBeCloseTo(sampleCorrelation(expected.g, expected.s), 12);
      expect(c.precisionPairs).toBeCloseTo(expected.precisionPairs, 12);
      expect(c.recallPairs).toBeCloseTo(expected.recallPairs, 12);
      expect(c.precisionDocs).toBeCloseTo(expected.precisionDocs, 12);
      expect(c.recallDocs).toBeCloseTo(expected.recallDocs, 12);
    }
  });
});

/** The definitions written out with string keys and sets: slow, obvious, independent. */
function reference(truthList: PairList, runList: PairList, nDocs: number) {
  const toMap = (l: PairList) => new Map(Array.from(l.a, (a, i) => [`${a}:${l.b[i]}`, l.score[i]!] as const));
  const G = toMap(truthList);
  const S = toMap(runList);
  const keys = new Set([...G.keys(), ...S.keys()]);
  const g: number[] = [];
  const s: number[] = [];
  const dup = new Set<string>();
  const res = new Set<string>();
  for (const k of keys) {
    const gk = G.get(k) ?? 0;
    const sk = S.get(k) ?? 0;
    if (gk >= opts.minScore || sk >= opts.minScore) {
      g.push(gk);
      s.push(sk);
    }
    if (gk >= opts.threshold) dup.add(k);
    if (sk >= opts.threshold) res.add(k);
  }
  const docsOf = (pairs: Set<string>) => new Set([...pairs].flatMap((k) => k.split(':')));
  const dupDocs = docsOf(dup);
  const resDocs = docsOf(res);
  const both = [...dup].filter((k) => res.has(k)).length;
  const bothDocs = [...dupDocs].filter((d) => resDocs.has(d)).length;
  expect(dupDocs.size).toBeLessThanOrEqual(nDocs);
  return {
    g,
    s,
    avgError: g.reduce((sum, gk, i) => sum + Math.abs(gk - s[i]!), 0) / g.length,
    precisionPairs: both / res.size,
    recallPairs: both / dup.size,
    precisionDocs: bothDocs / resDocs.size,
    recallDocs: bothDocs / dupDocs.size,
  };
}
