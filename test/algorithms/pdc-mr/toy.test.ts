/**
 * Algorithms 1 and 2 worked by hand on a toy collection of three documents in the manner of the
 * paper's Figure 4 (whose drawing is not in the text: this collection is drawn here), first on
 * a hand-written inverted index, then from text through every job and through the kernel.
 */
import { describe, expect, it } from 'vitest';
import { MR2, MR3, sentencePairsJob, sequenceJob } from '../../../algorithms/pdc-mr/jobs.ts';
import { pdcMrParams } from '../../../algorithms/pdc-mr/params.ts';
import { plan } from '../../../algorithms/pdc-mr/plan.ts';
import { runJobInMemory } from '../../support/run-job.ts';
import { runJobs, runKernel } from '../../support/span-plan-runs.ts';

/**
 * Sentences as signature sets (letters are signatures), entries "d s size start end n" with
 * made-up character ranges [10s, 10s + 9):
 *   d0 (2 sentences): s0 {A B C}    s1 {D E}
 *   d1 (3 sentences): s0 {A B C}    s1 {D E F}   s2 {G}
 *   d2 (2 sentences): s0 {A B C H}  s1 {D E}
 */
const e = (d: number, s: number, size: number, n: number): string => `${d} ${s} ${size} ${10 * s} ${10 * s + 9} ${n}`;
const index: [string, string][] = [
  ...['A', 'B', 'C'].map((sig): [string, string] => [sig, [e(0, 0, 3, 2), e(1, 0, 3, 3), e(2, 0, 4, 2)].join(',')]),
  ...['D', 'E'].map((sig): [string, string] => [sig, [e(0, 1, 2, 2), e(1, 1, 3, 3), e(2, 1, 2, 2)].join(',')]),
  ['F', e(1, 1, 3, 3)],
  ['G', e(1, 2, 1, 3)],
  ['H', e(2, 0, 4, 2)],
];

const params = (tau: number, gamma: number) => pdcMrParams.parse({ tau, gamma });

describe('Algorithm 1 on the toy index', () => {
  it('at τ = 0.6 every pair passes the length filter and all six are near-duplicates', () => {
    const r = runJobInMemory(sentencePairsJob(params(0.6, 2)), index);
    // by hand: A, B, C each emit 3 pairs of s0's (3/3, 3/4, 3/4 >= 0.6); D, E each 3 pairs of
    // s1's (2/3, 2/2, 2/3 >= 0.6); F, G, H hold one sentence: 15 records
    expect(r.counters[MR2]?.candidate_sentence_pairs).toBe(15);
    expect(r.counters[MR2]?.sentence_pairs).toBe(6);
    // J: (d0s0, d1s0) 3/3; (d0s0, d2s0) and (d1s0, d2s0) 3/(3+4-3) = 0.75; (d0s1, d1s1) and
    // (d1s1, d2s1) 2/(2+3-2) = 0.667; (d0s1, d2s1) 2/2
    expect(r.records.map(([k, v]) => `${k} ${v.split(' ').slice(0, 2).join(' ')}`).sort()).toEqual([
      '0:1 0 0', '0:1 1 1', '0:2 0 0', '0:2 1 1', '1:2 0 0', '1:2 1 1',
    ]);
  });

  it('at τ = 0.7 the length filter drops the pairs with d1s1 (2/3 < 0.7) before the reducer', () => {
    const r = runJobInMemory(sentencePairsJob(params(0.7, 2)), index);
    // A, B, C: 9 records; D, E: only (d0s1, d2s1), 2 records
    expect(r.counters[MR2]?.candidate_sentence_pairs).toBe(11);
    expect(r.counters[MR2]?.sentence_pairs).toBe(4);
    expect(r.counters[MR2]?.near_duplicate_sentence_pairs).toBe(4);
    expect(r.records.map(([k, v]) => `${k} ${v}`).sort()).toEqual([
      '0:1 0 0 0 9 0 9 2 3',
      '0:2 0 0 0 9 0 9 2 2',
      '0:2 1 1 10 19 10 19 2 2',
      '1:2 0 0 0 9 0 9 3 2',
    ]);
  });

  it('at τ = 0.8 the 0.75 pairs reach the reducer and fail there', () => {
    const r = runJobInMemory(sentencePairsJob(params(0.8, 2)), index);
    // 3/4 < 0.8: A, B, C emit only (d0s0, d1s0); D, E emit (d0s1, d2s1): 3 + 2 records
    expect(r.counters[MR2]?.candidate_sentence_pairs).toBe(5);
    expect(r.records.map(([k]) => k).sort()).toEqual(['0:1', '0:2']);
  });
});

describe('Algorithm 2 on the toy sentence pairs', () => {
  it('γ = 2 keeps the document pairs whose two sentences follow each other in both', () => {
    const at = (tau: number) => runJobInMemory(sentencePairsJob(params(tau, 2)), index).records;
    const six = runJobInMemory(sequenceJob(params(0.6, 2), Number.MIN_VALUE), at(0.6));
    // every document pair has (0,0), (1,1): one run of 2 each. Scores: (0,1) d0 is shorter,
    // 2/2; (0,2) equal lengths, 2/2; (1,2) d2 is shorter, 2/2
    expect(six.records.map(([k, v]) => `${k} ${v}`).sort()).toEqual([
      '0:1 P 1', '0:1 S 0 19 0 19 0 0 2',
      '0:2 P 1', '0:2 S 0 19 0 19 0 0 2',
      '1:2 P 1', '1:2 S 0 19 0 19 0 0 2',
    ]);
    const four = runJobInMemory(sequenceJob(params(0.7, 2), Number.MIN_VALUE), at(0.7));
    // only (0,2) keeps both of its sentence pairs
    expect(four.records.map(([k, v]) => `${k} ${v}`).sort()).toEqual(['0:2 P 1', '0:2 S 0 19 0 19 0 0 2']);
    expect(four.counters[MR3]).toEqual({ document_pairs: 3, runs: 1, run_sentence_pairs: 2, pairs: 1 });
  });
});

describe('the whole pipeline on three short texts', () => {
  const texts = [
    'The cat sat on the mat. It was warm. Birds sang loudly.',
    'Nothing here matches. The cat sat on the mat. It was warm. Birds sang loudly.',
    'The cat sat on a mat. It was warm today.',
  ];
  const docs = { ids: ['d0', 'd1', 'd2'], texts };
  const p = plan(pdcMrParams.parse({ signature: { method: 'shingles', n: 2 }, tau: 0.6, gamma: 2 }), { minScore: Number.MIN_VALUE, seed: 1 });

  // By hand, 2-word shingles: "the cat sat on the mat" has 5, "it was warm" 2, "birds sang
  // loudly" 2, "nothing here matches" 2, "the cat sat on a mat" 5 (3 shared with the first:
  // J = 3/7 < 0.6), "it was warm today" 3 (2 shared with "it was warm": J = 2/3 >= 0.6).
  // Near-duplicate sentences: (d0s0,d1s1) (d0s1,d1s2) (d0s2,d1s3) at 1, (d0s1,d2s1)
  // (d1s2,d2s1) at 2/3. The only run of 2 or more: d0 s0-s2 = d1 s1-s3. Offsets: d0's
  // sentences are [0,23) [24,36) [37,55); d1's "The cat…" starts at 22, "…loudly." ends at 77.
  // Score: d0 (3 sentences) is shorter than d1 (4), and all of it is covered: 1.
  const expected = { pairs: ['0 1 1'], spans: ['0 1 0 55 22 77 0 1 3'] };

  it('the text jobs find the run', () => {
    const r = runJobs(p, docs);
    expect({ pairs: r.pairs, spans: r.spans }).toEqual(expected);
    // 3 + 4 + 2 sentences; signatures 5+2+2 + 2+5+2+2 + 5+3 = 28
    expect(r.counters['pdc-mr1-index']).toMatchObject({ documents: 3, sentences: 9, signatures: 28 });
    expect(r.counters[MR2]?.near_duplicate_sentence_pairs).toBe(5);
  });

  it('the kernel gives the same pairs, spans and counters', async () => {
    const jobs = runJobs(p, docs);
    const kernel = await runKernel(p, docs);
    expect({ pairs: kernel.pairs, spans: kernel.spans }).toEqual(expected);
    expect(kernel.counters).toEqual(jobs.counters);
  });
});
