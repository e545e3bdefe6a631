/**
 * MapDupReducer's six text jobs and the typed-array kernel on text: both equal a brute-force
 * all-pairs Jaccard over the same token sets (built here from the shingle strings and the
 * fingerprint of each, not through the code under test), for several t, every token kind and both
 * fingerprints; and the jobs give exactly the kernel's pairs, scores and counters, whatever order
 * the reducers' values arrive in and on one or two worker threads.
 */
import { describe, expect, it } from 'vitest';
import { smallCorpus } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';
import { allFilterSettings, bruteForce, docSet, nearDuplicateCorpus, planFor, runJobs, runKernel, tokenSets } from './support.ts';

const small = smallCorpus();
const generated = docSet(nearDuplicateCorpus(42));

const tokenKinds = [
  { unit: 'char', size: 16, start: 'word' },
  { unit: 'word', size: 1 },
  { unit: 'word', size: 3 },
] as const;

describe('PPJoin on text against brute force', () => {
  it.each(tokenKinds)('jobs and kernel report exactly the pairs with RR >= t over %j', async (shingle) => {
    for (const docs of [small, generated]) {
      const sets = tokenSets([...docs.texts], shingle);
      for (const t of [0.3, 0.5, 0.7, 0.8, 0.9, 1]) {
        const expected = bruteForce(sets, t);
        const plan = planFor({ threshold: t, shingle, filters: { suffix: true } });
        const jobs = runJobs(plan, docs);
        const kernel = await runKernel(plan, docs);
        expect(jobs.rows, `jobs t=${t}`).toEqual(expected);
        expect(kernel.rows, `kernel t=${t}`).toEqual(expected);
        expect(kernel.counters).toEqual(jobs.counters);
      }
    }
    // the fixtures do have pairs at the high thresholds
    expect(bruteForce(tokenSets([...generated.texts], shingle), 0.9).length).toBeGreaterThan(2);
  });

  it('agrees with brute force over 128-bit MD5 fingerprints', async () => {
    const shingle = { unit: 'char', size: 16, start: 'word' } as const;
    const expected = bruteForce(tokenSets([...generated.texts], shingle, 'md5'), 0.6);
    const plan = planFor({ threshold: 0.6, shingle, fingerprint: 'md5', filters: { suffix: true } });
    expect(runJobs(plan, generated).rows).toEqual(expected);
    expect((await runKernel(plan, generated)).rows).toEqual(expected);
  });

  it('gives the same pairs and counters in jobs and kernel for every filter combination', async () => {
    const shingle = { unit: 'word', size: 2 } as const;
    const expected = bruteForce(tokenSets([...generated.texts], shingle), 0.7);
    for (const filters of allFilterSettings()) {
      const plan = planFor({ threshold: 0.7, shingle, filters, signature_bits: 64 });
      const jobs = runJobs(plan, generated);
      const kernel = await runKernel(plan, generated);
      expect(jobs.rows, JSON.stringify(filters)).toEqual(expected);
      expect(kernel.rows, JSON.stringify(filters)).toEqual(expected);
      expect(kernel.counters, JSON.stringify(filters)).toEqual(jobs.counters);
    }
  });

  it('does not depend on the order of the reducers’ values, nor on the worker threads', async () => {
    const plan = planFor({ threshold: 0.5, shingle: { unit: 'char', size: 16 }, filters: { suffix: true } });
    const first = runJobs(plan, generated, 1);
    for (const seed of [2, 3]) expect(runJobs(plan, generated, seed)).toEqual(first);
    const two = await runKernel(plan, generated, 2);
    expect(two).toEqual(first);
  });

  it('gives the same pairs and counters when the local backend runs the jobs on two threads and spills', async () => {
    const params = { threshold: 0.6, shingle: { unit: 'char', size: 16 }, filters: { suffix: true } };
    const kernel = await runPlan('ppjoin', params, generated, { engine: 'auto', workers: 2 });
    // 0.01 MiB forces every shuffle to disk in many sorted runs
    const jobs = await runPlan('ppjoin', params, generated, { engine: 'jobs', workers: 2, memoryMb: 0.01 });
    expect(kernel.rows.length).toBeGreaterThan(10);
    expect(jobs.rows).toEqual(kernel.rows);
    expect(jobs.counters).toEqual(kernel.counters);
  });

  it('reports the join threshold as its score floor and its pairs as its decisions', () => {
    const plan = planFor({ threshold: 0.8 });
    expect(plan.output.score).toEqual({ kind: 'resemblance', floor: 0.8 });
    expect(plan.output.decisions).toEqual({ kind: 'every-reported-pair' });
    expect(plan.output.candidates).toEqual({ group: 'ppjoin', name: 'candidates_after_signature' });
    expect(plan.jobs.map((j) => j.name)).toEqual([
      'ppjoin-1-token-frequencies',
      'ppjoin-2-ordered-sets',
      'ppjoin-3-prefix-pairs',
      'ppjoin-4-position-filter',
      'ppjoin-5-candidate-sets',
      'ppjoin-6-verify',
    ]);
    // pairs below a higher minimum score need not be joined at all
    expect(planFor({ threshold: 0.5 }, 0.9).output.score).toEqual({ kind: 'resemblance', floor: 0.9 });
  });
});
