/**
 * A ground truth that reports from the lowest score the measures read, with a scorer for the
 * rest, must give every measure the truth reporting every pair gives (docs/design.md §8.2).
 */
import { describe, expect, it } from 'vitest';
import type { PairList, PairScorer, PlanOutput } from '../../../contract/index.ts';
import { assignGroups, DEFAULT_SIZE_GROUPS } from '../../../harness/evaluate/size-groups.ts';
import { sortPairs } from '../../../harness/evaluate/sorted-pairs.ts';
import { withLookups } from '../../../harness/evaluate/truth-lookups.ts';
import { evaluateVariant } from '../../../harness/evaluate/variant.ts';
import { ErrorSampler } from '../../../harness/evaluate/explain/errors.ts';
import { pairList, randomPairs, rows, seededRandom } from './pairs.ts';

const DOCS = 60;
const evaluate = { threshold: 0.5, thresholds: [0.3, 0.8], min_score: 0.2, distribution: [0.9, 0.5, 0.2] };
const LOWEST = 0.2;

function above(list: PairList, floor: number): PairList {
  return pairList(rows(list).filter((r) => r[2] >= floor));
}

/** The truth's score of any pair, from its full list: 0 for a pair it does not have. */
function scorerOf(full: PairList): { scorer: PairScorer; asked: () => number } {
  const byPair = new Map(rows(full).map(([a, b, s]) => [`${a} ${b}`, s]));
  let asked = 0;
  return {
    scorer: async (a, b) => {
      asked += a.length;
      return Float64Array.from(a, (x, i) => byPair.get(`${x} ${b[i]}`) ?? 0);
    },
    asked: () => asked,
  };
}

const outputs: Record<string, PlanOutput> = {
  estimate: { pairs: 'p', score: { kind: 'resemblance', floor: 0 }, decisions: { kind: 'score-at-threshold' } },
  join: { pairs: 'p', score: { kind: 'resemblance', floor: 0.4 }, decisions: { kind: 'every-reported-pair' } },
  other: { pairs: 'p', score: { kind: 'other', why: 'w' }, decisions: { kind: 'every-reported-pair' } },
};

describe('withLookups', () => {
  it.each([1, 2, 3, 4])('gives the measures of the truth reporting every pair (seed %i)', async (seed) => {
    const random = seededRandom(seed);
    const full = sortPairs(randomPairs(400, DOCS, random, () => random()), DOCS, 'truth');
    // The run: some of the truth's pairs with other scores, and pairs the truth does not have.
    const shared = rows(full).filter(() => random() < 0.4).map(([a, b]): [number, number, number] => [a, b, random()]);
    const own = rows(randomPairs(150, DOCS, random, () => random())).filter(([a, b]) => !rows(full).some((r) => r[0] === a && r[1] === b));
    const run = sortPairs(pairList([...shared, ...own]), DOCS, 'run');
    const sizes = assignGroups(Uint32Array.from({ length: DOCS }, () => Math.floor(random() * 3000)), DEFAULT_SIZE_GROUPS);
    for (const [kind, output] of Object.entries(outputs)) {
      const { scorer, asked } = scorerOf(full);
      const base = { pairs: run, output, counters: {}, documents: DOCS, evaluate, sizes };
      const whole = await evaluateVariant({ ...base, truth: { pairs: full, candidates: 1 } });
      const looked = await evaluateVariant({ ...base, truth: { pairs: above(full, LOWEST), candidates: 1, scorer } });
      expect(looked, kind).toEqual(whole);
      expect(asked(), kind).toBeGreaterThan(0);
    }
  });

  it('draws the error sample of the truth reporting every pair: a false positive under its floor has its looked-up resemblance', async () => {
    const random = seededRandom(5);
    const full = sortPairs(randomPairs(400, DOCS, random, () => random()), DOCS, 'truth');
    const run = sortPairs(pairList(rows(full).map(([a, b]): [number, number, number] => [a, b, random()])), DOCS, 'run');
    const drawn = async (truth: { pairs: PairList; candidates: number; scorer?: PairScorer }) => {
      const sampler = new ErrorSampler({ seed: 3, threshold: evaluate.threshold, size: 1000 });
      await evaluateVariant({ pairs: run, output: outputs['estimate'] as PlanOutput, counters: {}, documents: DOCS, evaluate, truth, wrong: sampler });
      return sampler.sample();
    };
    const whole = await drawn({ pairs: full, candidates: 1 });
    const looked = await drawn({ pairs: above(full, LOWEST), candidates: 1, scorer: scorerOf(full).scorer });
    expect(looked).toEqual(whole);
    // every error of the run is in the sample (size 1000), and some false positives lie under the truth's floor
    const under = looked.sample.filter((e) => e.kind === 'false positive' && e.truth > 0 && e.truth < LOWEST);
    expect(under.length).toBeGreaterThan(0);
    for (const e of under) expect(e.truth).toBe(rows(full).find((r) => r[0] === e.a && r[1] === e.b)?.[2]);
  });

  it('adds the looked-up pairs scoring above 0, in order, and asks only for those a measure reads', async () => {
    const truth = pairList([[0, 1, 0.9], [2, 3, 0.5]]);
    const run = pairList([[0, 1, 0.9], [0, 2, 0.6], [1, 2, 0.05], [1, 3, 0.7], [2, 3, 0.4]]);
    const asked: string[] = [];
    const scorer: PairScorer = async (a, b) => Float64Array.from(a, (x, i) => (asked.push(`${x} ${b[i]}`), x === 0 ? 0.15 : 0));
    // (1,2) scores 0.05 in the run, under the floor: not asked; (1,3) scores 0 in the truth: left out.
    expect(rows(await withLookups(truth, run, { floor: 0.2, allRun: false, scorer }))).toEqual([[0, 1, 0.9], [0, 2, 0.15], [2, 3, 0.5]]);
    expect(asked).toEqual(['0 2', '1 3']);
  });

  it('asks in pieces of at most `piece` pairs, and gives what one question gives', async () => {
    const random = seededRandom(9);
    const full = sortPairs(randomPairs(300, DOCS, random, () => random()), DOCS, 'truth');
    const run = sortPairs(randomPairs(200, DOCS, random, () => random()), DOCS, 'run');
    const whole = await withLookups(above(full, LOWEST), run, { floor: LOWEST, allRun: true, scorer: scorerOf(full).scorer, piece: 1 << 20 });
    const sizes: number[] = [];
    const { scorer } = scorerOf(full);
    const pieces = await withLookups(above(full, LOWEST), run, { floor: LOWEST, allRun: true, scorer: (a, b) => (sizes.push(a.length), scorer(a, b)), piece: 7 });
    expect(rows(pieces)).toEqual(rows(whole));
    expect(sizes.length).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
  });

  it('stops between two pieces at an interrupt', async () => {
    const random = seededRandom(10);
    const full = sortPairs(randomPairs(300, DOCS, random, () => random()), DOCS, 'truth');
    const run = sortPairs(randomPairs(200, DOCS, random, () => random()), DOCS, 'run');
    const ac = new AbortController();
    const { scorer } = scorerOf(full);
    let asked = 0;
    const looking = withLookups(above(full, LOWEST), run, {
      floor: LOWEST,
      allRun: true,
      scorer: (a, b) => (++asked === 1 && ac.abort(new Error('interrupted')), scorer(a, b)),
      signal: ac.signal,
      piece: 7,
    });
    await expect(looking).rejects.toThrow('interrupted');
    expect(asked).toBe(1);
  });
});
