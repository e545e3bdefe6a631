/**
 * What the evaluation makes of a plan's declarations, on pairs small enough to count by hand.
 * Truth over 5 documents: (0,1) 0.9, (0,2) 0.6, (1,2) 0.3, (3,4) 0.05.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { PairList, PlanOutput } from '../../../contract/index.ts';
import { evaluateVariant, pairsFileFloor } from '../../../harness/evaluate/variant.ts';
import { pairsCsvGz } from '../../../harness/results/pairs-file.ts';

const list = (rows: [number, number, number][]): PairList => ({
  a: Uint32Array.from(rows.map((r) => r[0])),
  b: Uint32Array.from(rows.map((r) => r[1])),
  score: Float64Array.from(rows.map((r) => r[2])),
});
const truthPairs = list([
  [0, 1, 0.9],
  [0, 2, 0.6],
  [1, 2, 0.3],
  [3, 4, 0.05],
]);
const evaluate = { threshold: 0.5, min_score: 0.1, distribution: [0.8, 0.5, 0.2] };
const truth = { pairs: truthPairs, candidates: 10 };
const output = (over: Partial<PlanOutput>): PlanOutput => ({
  pairs: 'p',
  score: { kind: 'resemblance', floor: 0 },
  decisions: { kind: 'score-at-threshold' },
  ...over,
});

describe('evaluateVariant', () => {
  it('compares an exact join from its floor up: a join at 0.5 that finds every pair there has no error', async () => {
    const join = list([
      [0, 1, 0.9],
      [0, 2, 0.6],
    ]);
    const e = await evaluateVariant({ pairs: join, output: output({ score: { kind: 'resemblance', floor: 0.5 }, decisions: { kind: 'every-reported-pair' } }), counters: {}, documents: 5, evaluate, truth });
    // P = {G >= 0.5 or S >= 0.5} = {(0,1), (0,2)}: both exact
    expect(e.pairsCompared).toBe(2);
    expect(e.measures.avg_error).toBe(0);
    expect(e.measures.precision_pairs).toBe(1);
    expect(e.measures.recall_pairs).toBe(1);
    // below its floor the join says nothing of the share of documents
    expect(e.distribution).toEqual([40, 60, null]);
    expect(e.notApplicable.distribution).toMatch(/from RR 0.5 up: no share at 0.2/);
  });

  it('with floor 0 the same pairs are an estimate that missed (1,2) at 0.3', async () => {
    const e = await evaluateVariant({ pairs: list([[0, 1, 0.9], [0, 2, 0.6]]), output: output({}), counters: {}, documents: 5, evaluate, truth });
    // P = {(0,1), (0,2), (1,2)}: errors 0, 0, 0.3
    expect(e.pairsCompared).toBe(3);
    expect(e.measures.avg_error).toBeCloseTo(0.1, 15);
  });

  it('takes every reported pair as a decision, whatever its score, when the plan says so', async () => {
    // a detector that calls (0,1) and (1,2) duplicates with score 0.2 each
    const pairs = list([[0, 1, 0.2], [1, 2, 0.2]]);
    const byScore = await evaluateVariant({ pairs, output: output({ score: { kind: 'other', why: 'w' } }), counters: {}, documents: 5, evaluate, truth });
    expect(byScore.measures.precision_pairs).toBeNull();
    const byDecision = await evaluateVariant({ pairs, output: output({ score: { kind: 'other', why: 'w' }, decisions: { kind: 'every-reported-pair' } }), counters: {}, documents: 5, evaluate, truth });
    // Res = {(0,1), (1,2)}, Dup = {(0,1), (0,2)}: 1 of 2 each way
    expect(byDecision.measures.precision_pairs).toBe(0.5);
    expect(byDecision.measures.recall_pairs).toBe(0.5);
    expect(byDecision.measures.avg_error).toBeNull();
    expect(byDecision.notApplicable).toMatchObject({ avg_error: 'w', correlation: 'w', distribution: 'w' });
    expect(byDecision.distribution).toEqual([null, null, null]);
    // every reported pair goes to the pairs file when the score is no RR
    expect(byDecision.measures.pairs).toBe(2);
  });

  it('reads candidates from the counter the plan names, and compares them with the ground truth’s', async () => {
    const candidates = { group: 'j', name: 'compared' };
    const e = await evaluateVariant({ pairs: list([]), output: output({ candidates }), counters: { j: { compared: 4 } }, documents: 5, evaluate, truth });
    expect(e.measures.candidate_pairs).toBe(4);
    expect(e.measures.candidate_reduction_pct).toBeCloseTo(60, 12);
  });

  it('leaves candidates empty, never a 100% reduction, when the counters did not arrive', async () => {
    const candidates = { group: 'j', name: 'compared' };
    const e = await evaluateVariant({ pairs: list([]), output: output({ candidates }), counters: {}, documents: 5, evaluate, truth });
    expect(e.measures.candidate_pairs).toBeNull();
    expect(e.measures.candidate_reduction_pct).toBeNull();
    expect(e.warnings).toContain('candidate_pairs: undefined, the counter j.compared did not arrive');
    // a group that exists without the counter means zero
    const zero = await evaluateVariant({ pairs: list([]), output: output({ candidates }), counters: { j: { other: 1 } }, documents: 5, evaluate, truth });
    expect(zero.measures.candidate_pairs).toBe(0);
    expect(zero.measures.candidate_reduction_pct).toBe(100);
  });

  it('has no candidate measures when the plan declares no candidates', async () => {
    const e = await evaluateVariant({ pairs: list([]), output: output({}), counters: {}, documents: 5, evaluate, truth });
    expect('candidate_pairs' in e.measures).toBe(false);
  });

  it('keeps every reported pair in the pairs file when each is a decision, even one scoring below min_score', async () => {
    // A join at RR 0.05 (its floor) reports (3,4) at 0.05 < min_score 0.1: it is one of its
    // decisions, so the file has all 3 pairs and `pairs` is 3 (counted by hand).
    const join = list([
      [0, 1, 0.9],
      [0, 2, 0.6],
      [3, 4, 0.05],
    ]);
    const out = output({ score: { kind: 'resemblance', floor: 0.05 }, decisions: { kind: 'every-reported-pair' } });
    expect(pairsFileFloor(out, 0.1)).toBe(-Infinity);
    const e = await evaluateVariant({ pairs: join, output: out, counters: {}, documents: 5, evaluate, truth });
    expect(e.measures.pairs).toBe(3);
    const file = await pairsCsvGz(join, ['d0', 'd1', 'd2', 'd3', 'd4'], e.pairsFileFloor);
    expect(file.rows).toBe(3);
    expect(gunzipSync(Buffer.concat(file.pieces)).toString('utf8')).toBe('doc_a,doc_b,score\nd0,d1,0.9\nd0,d2,0.6\nd3,d4,0.05\n');
  });

  it('writes an RR estimate decided at the threshold from min_score up', async () => {
    const est = list([
      [0, 1, 0.9],
      [3, 4, 0.05],
    ]);
    const e = await evaluateVariant({ pairs: est, output: output({}), counters: {}, documents: 5, evaluate, truth });
    expect(e.pairsFileFloor).toBe(0.1);
    expect(e.measures.pairs).toBe(1);
  });
});
