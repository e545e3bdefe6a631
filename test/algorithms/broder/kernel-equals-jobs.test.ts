/**
 * The local backend's typed-array kernel must give exactly the pairs, scores and counters of the
 * text MapReduce jobs (docs/design.md §6.4: every backend gives the same pairs for the same input), and
 * both must equal a naive set computation written here from the definitions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValueStore } from '../../../harness/runtime/stored-values.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { fingerprintHex, fingerprintMod, fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';
import { jobPairs, pairRows, runPlanJobs, runPlanKernel } from '../../support/kernel-and-jobs.ts';
import { adapter as broder } from '../../../algorithms/broder/index.ts';

const docs = smallCorpus();
const shingle = { unit: 'char', size: 16 };

const samplings = [
  { method: 'none' },
  { method: 'mod', m: 2 },
  { method: 'mod', m: 4, residue: 3 },
  { method: 'sct', threshold: 2 },
  { method: 'sct', threshold: 5 },
  { method: 'mod', m: 8 },
  // One modulus for every group (an adaptive-target calibration run): still counted per group.
  {
    method: 'adaptive',
    groups: [
      { max_size: 20, m: 2 },
      { max_size: null, m: 2 },
    ],
  },
  {
    method: 'adaptive',
    groups: [
      { max_size: 20, m: 1 },
      { max_size: null, m: 2 },
    ],
  },
  {
    method: 'adaptive',
    by: 'words',
    groups: [
      { max_size: 15, m: 1 },
      { max_size: 40, m: 2 },
      { max_size: null, m: 4 },
    ],
  },
];

describe('Broder kernel and text jobs', () => {
  // In one run the fingerprints are shared, and from a sampling's second variant on the kernel
  // reads each document's kept entries as a prefix of an entry order (entry-order.ts).
  it('agree on every variant of a sweep that shares the fingerprints and the entry orders', async () => {
    const cache = new Map<string, Promise<unknown>>();
    const sweep = [2, 4, 8, 2].map((m) => ({ method: 'mod', m })).concat([2, 3, 5, 2].map((threshold) => ({ method: 'sct', threshold }) as never));
    for (const sampling of sweep) {
      const plan = broder.plan(broder.params.parse({ shingle, sampling }), { minScore: Number.MIN_VALUE, seed: 0 });
      const kernel = await runPlanKernel(plan, docs, { cache, workers: 2, tasks: 'pool' });
      const jobs = runPlanJobs(plan, docs);
      expect(pairRows(kernel.result.pairs)).toEqual(pairRows(jobPairs(plan, jobs, docs.texts.length)));
      expect(kernel.counters).toEqual(jobs.counters);
    }
    expect([...cache.keys()].filter((k) => k.includes(':order:') && !k.endsWith(':uses'))).toHaveLength(2);
  });

  // A later run over the same documents replays the fingerprints and the orders an earlier run
  // stored, so that a sampling's first variant reads its prefix of the order as well.
  it('agree on every variant of a sweep whose run replays the features and orders an earlier run stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'broder-stored-'));
    try {
      const store = (): ValueStore => new ValueStore({ dir, maxBytes: 2 ** 30, minChars: 0, notice: (l) => expect.fail(l) });
      const sweep = [4, 2].map((m) => ({ method: 'mod', m })).concat([5, 2].map((threshold) => ({ method: 'sct', threshold }) as never));
      const run = async (s: ValueStore): Promise<(readonly string[])[]> => {
        const cache = new Map<string, Promise<unknown>>();
        const replayed: (readonly string[])[] = [];
        for (const sampling of sweep) {
          const plan = broder.plan(broder.params.parse({ shingle, sampling }), { minScore: Number.MIN_VALUE, seed: 0 });
          const kernel = await runPlanKernel(plan, docs, { cache, workers: 2, tasks: 'pool', store: s });
          const jobs = runPlanJobs(plan, docs);
          expect(pairRows(kernel.result.pairs)).toEqual(pairRows(jobPairs(plan, jobs, docs.texts.length)));
          expect(kernel.counters).toEqual(jobs.counters);
          replayed.push(kernel.replayed);
        }
        await s.flush();
        return replayed;
      };
      expect(await run(store())).toEqual([[], [], [], []]);
      const features = 'fingerprint features (char-16 shingles, rabin64)';
      expect(await run(store())).toEqual([
        [features, "an entry order by trailing zero bits (Broder's samplings)"],
        [],
        ["an entry order by document frequency (Broder's samplings)"],
        [],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(samplings)('agree on pairs, scores and counters for %j', async (sampling) => {
    const params = { shingle, sampling };
    const jobs = await runPlan('broder', params, docs, { engine: 'jobs' });
    const kernel = await runPlan('broder', params, docs, { engine: 'auto' });
    expect(jobs.rows.length).toBeGreaterThan(0);
    expect(kernel.rows).toEqual(jobs.rows);
    expect(kernel.counters).toEqual(jobs.counters);
  });

  it.each([{ method: 'none' }, { method: 'mod', m: 2 }])('agree with 128-bit MD5 fingerprints for %j', async (sampling) => {
    const params = { shingle, fingerprint: 'md5', sampling };
    const jobs = await runPlan('broder', params, docs, { engine: 'jobs' });
    const kernel = await runPlan('broder', params, docs, { engine: 'auto', workers: 2 });
    expect(jobs.rows.length).toBeGreaterThan(0);
    expect(kernel.rows).toEqual(jobs.rows);
    expect(kernel.counters).toEqual(jobs.counters);
  });

  it('gives the same result on two worker threads as on one', async () => {
    const params = { shingle, sampling: { method: 'mod', m: 2 } };
    const one = await runPlan('broder', params, docs, { engine: 'auto', workers: 1 });
    const two = await runPlan('broder', params, docs, { engine: 'auto', workers: 2 });
    expect(two.rows).toEqual(one.rows);
  });

  it.each([{ method: 'none' }, { method: 'sct', threshold: 2 }, { method: 'mod', m: 2 }])(
    'agree when the text jobs run on two worker threads and spill, for %j',
    async (sampling) => {
      const params = { shingle, sampling };
      const kernel = await runPlan('broder', params, docs, { engine: 'auto' });
      const jobs = await runPlan('broder', params, docs, { engine: 'jobs', workers: 2, memoryMb: 0.01 });
      expect(jobs.rows).toEqual(kernel.rows);
      expect(jobs.counters).toEqual(kernel.counters);
    },
  );

  it('gives the same result when the shuffle spills to disk', async () => {
    const params = { shingle, sampling: { method: 'none' } };
    const roomy = await runPlan('broder', params, docs, { engine: 'jobs', memoryMb: 64 });
    // 0.01 MiB forces dozens of sorted runs and a k-way merge
    const tight = await runPlan('broder', params, docs, { engine: 'jobs', memoryMb: 0.01 });
    expect(tight.rows).toEqual(roomy.rows);
  });
});

/** Each document's set of fingerprints (hex), straight from the definitions. */
function fingerprintSets(texts: readonly string[], n: number): { hex: string; fp: Uint32Array }[][] {
  return texts.map((t) => {
    const seen = new Map<string, Uint32Array>();
    for (const s of charShingles(normalize(t), n)) {
      const fp = fingerprintOf(s, 'rabin64');
      seen.set(fingerprintHex(fp, 0, 2), fp);
    }
    return [...seen].map(([hex, fp]) => ({ hex, fp }));
  });
}

describe('Broder against a naive set computation', () => {
  const sets = fingerprintSets([...docs.texts], 16);

  it('mod sampling is the Jaccard of the sampled sets', async () => {
    const m = 2;
    const sampled = sets.map((s) => new Set(s.filter((x) => fingerprintMod(x.fp, 0, 2, m) === 0).map((x) => x.hex)));
    const expected: string[] = [];
    for (let a = 0; a < sampled.length; a++) {
      for (let b = a + 1; b < sampled.length; b++) {
        const A = sampled[a] as Set<string>;
        const B = sampled[b] as Set<string>;
        let common = 0;
        for (const x of A) if (B.has(x)) common++;
        if (common > 0) expected.push(`${a} ${b} ${common / (A.size + B.size - common)}`);
      }
    }
    const r = await runPlan('broder', { shingle, sampling: { method: 'mod', m } }, docs, { engine: 'auto' });
    expect(r.rows).toEqual(expected.sort());
  });

  it('SCT counts only fingerprints held by at most SCT documents, over the full sizes', async () => {
    const T = 2;
    const df = new Map<string, number>();
    for (const s of sets) for (const x of s) df.set(x.hex, (df.get(x.hex) ?? 0) + 1);
    const expected: string[] = [];
    for (let a = 0; a < sets.length; a++) {
      for (let b = a + 1; b < sets.length; b++) {
        const A = sets[a] as { hex: string }[];
        const B = new Set((sets[b] as { hex: string }[]).map((x) => x.hex));
        let common = 0;
        for (const x of A) if (B.has(x.hex) && (df.get(x.hex) as number) <= T) common++;
        if (common > 0) expected.push(`${a} ${b} ${common / (A.length + B.size - common)}`);
      }
    }
    const r = await runPlan('broder', { shingle, sampling: { method: 'sct', threshold: T } }, docs, { engine: 'auto' });
    expect(r.rows).toEqual(expected.sort());
  });

  it('never scores a pair above its full-shingle score under SCT (so precision stays 1)', async () => {
    const full = await runPlan('broder', { shingle }, docs, { engine: 'auto' });
    const sct = await runPlan('broder', { shingle, sampling: { method: 'sct', threshold: 2 } }, docs, { engine: 'auto' });
    const g = new Map(full.rows.map((r) => [r.split(' ').slice(0, 2).join(' '), Number(r.split(' ')[2])]));
    for (const row of sct.rows) {
      const [a, b, s] = row.split(' ');
      expect(Number(s)).toBeLessThanOrEqual(g.get(`${a} ${b}`) as number);
    }
  });
});

describe('Broder on real mail against the naive set computation', () => {
  it('agrees on mod 16 and SCT 10 over the spam-1 folder of the bundled corpus', async () => {
    const { newCorpusStats, readCorpus } = await import('../../../harness/corpus/read.ts');
    const ids: string[] = [];
    const texts: string[] = [];
    for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['spam-1'] } }, newCorpusStats())) {
      ids.push(d.id);
      texts.push(d.text);
    }
    const full = fingerprintSets(texts, 64);
    const df = new Map<string, number>();
    for (const s of full) for (const x of s) df.set(x.hex, (df.get(x.hex) ?? 0) + 1);
    const naive = (keep: (x: { hex: string; fp: Uint32Array }) => boolean, sampledSizes: boolean): string[] => {
      const sets = full.map((s) => new Set(s.filter(keep).map((x) => x.hex)));
      const rows: string[] = [];
      for (let a = 0; a < sets.length; a++) {
        for (let b = a + 1; b < sets.length; b++) {
          const A = sets[a] as Set<string>;
          const B = sets[b] as Set<string>;
          let c = 0;
          for (const x of A) if (B.has(x)) c++;
          const sa = sampledSizes ? A.size : (full[a] as unknown[]).length;
          const sb = sampledSizes ? B.size : (full[b] as unknown[]).length;
          if (c > 0) rows.push(`${a} ${b} ${c / (sa + sb - c)}`);
        }
      }
      return rows.sort();
    };
    const mod = await runPlan('broder', { sampling: { method: 'mod', m: 16 } }, { ids, texts }, { engine: 'auto', workers: 2 });
    expect(mod.rows).toEqual(naive((x) => fingerprintMod(x.fp, 0, 2, 16) === 0, true));
    const sct = await runPlan('broder', { sampling: { method: 'sct', threshold: 10 } }, { ids, texts }, { engine: 'auto', workers: 2 });
    expect(sct.rows).toEqual(naive((x) => (df.get(x.hex) as number) <= 10, false));
    expect(mod.rows.length).toBeGreaterThan(100);
  });
});
