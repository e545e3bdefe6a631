/** The kernel and the text jobs agree on real mail: pairs, spans and every counter. */
import { describe, expect, it } from 'vitest';
import { pdcMrParams } from '../../../algorithms/pdc-mr/params.ts';
import { plan } from '../../../algorithms/pdc-mr/plan.ts';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { runJobs, runKernel } from '../../support/span-plan-runs.ts';

async function hardHam(): Promise<{ ids: string[]; texts: string[] }> {
  const ids: string[] = [];
  const texts: string[] = [];
  for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['hard-ham-1'] } }, newCorpusStats())) {
    ids.push(d.id);
    texts.push(d.text);
  }
  return { ids, texts };
}

describe('PDC-MR kernel and jobs on the hard-ham-1 folder of the bundled corpus', () => {
  it.each([
    { signature: { method: 'shingles', n: 4 }, tau: 0.9, gamma: 3 },
    { signature: { method: 'spotsigs', antecedents: 50 }, tau: 0.9, gamma: 2 },
    { signature: { method: 'imatch', idf_min: 0.1, idf_max: 1 }, tau: 0.9, gamma: 3 },
  ])('agree for %j', async (raw) => {
    const docs = await hardHam();
    const p = plan(pdcMrParams.parse(raw), { minScore: Number.MIN_VALUE, seed: 1 });
    const jobs = runJobs(p, docs);
    const kernel = await runKernel(p, docs);
    expect(jobs.spans.length).toBeGreaterThan(10);
    expect(kernel.pairs).toEqual(jobs.pairs);
    expect(kernel.spans).toEqual(jobs.spans);
    expect(kernel.counters).toEqual(jobs.counters);
  });
});
