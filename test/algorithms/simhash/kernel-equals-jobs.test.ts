/**
 * simhash's kernel (typed arrays on worker threads) must give exactly the pairs, signatures and
 * counters of its three MapReduce jobs, for every variant; document frequencies loaded from a
 * file must give what the corpus gives when the file holds the corpus' own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputFileError, type DocumentSet } from '../../../contract/index.ts';
import { simhashParams } from '../../../algorithms/simhash/params.ts';
import { plan } from '../../../algorithms/simhash/plan.ts';
import { DF_OUTPUT } from '../../../algorithms/simhash/jobs.ts';
import { runJobInMemory } from '../../support/run-job.ts';
import { runJobs, runKernel } from './run-plan.ts';

async function spamOne(): Promise<DocumentSet> {
  const { newCorpusStats, readCorpus } = await import('../../../harness/corpus/read.ts');
  const ids: string[] = [];
  const texts: string[] = [];
  const meta: Record<string, string>[] = [];
  for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['spam-1'] } }, newCorpusStats())) {
    ids.push(d.id);
    texts.push(d.text);
    // the reader carries the subject; the sender and tagged text arrive with stage B's readers
    const first = d.text.split('\n').find((l) => l.trim() !== '') ?? '';
    meta.push({ ...(d.meta ?? {}), from: `sender${ids.length % 7}@example.org`, tagged: first });
  }
  return { ids, texts, meta };
}

const seed = 20260101;
const planFor = (raw: Record<string, unknown>) => plan(simhashParams.parse(raw), { minScore: Number.MIN_VALUE, seed });

let docs: DocumentSet;
beforeAll(async () => {
  docs = await spamOne();
});

const variants: Record<string, unknown>[] = [
  {},
  { k: 0 },
  { k: 6 },
  { k: 3, blocks: 6 },
  { metadata: { fields: ['subject', 'from'] } },
  { strip_numbers_dates: true },
  { low_threshold: true },
  { high_threshold: true },
  { top_features: 20 },
  { position: 'log' },
  { position: 'cosine' },
  { tag_boost: true },
  { idf: 'log' },
  { features: { unit: 'word', size: 3 } },
  { features: { unit: 'char', size: 32 }, k: 4 },
];

describe('simhash kernel and jobs', () => {
  it.each(variants)('agree on pairs, signatures and counters for %j', async (raw) => {
    const p = planFor(raw);
    const jobs = runJobs(p, docs);
    const kernel = await runKernel(p, docs);
    expect(jobs.rows.length).toBeGreaterThan(0);
    expect(kernel.rows).toEqual(jobs.rows);
    expect(kernel.tables).toEqual(jobs.tables);
    expect(kernel.counters).toEqual(jobs.counters);
  });

  it('give the same result on two worker threads as on one', async () => {
    const p = planFor({ k: 4 });
    const one = await runKernel(p, docs, 1);
    const two = await runKernel(p, docs, 2);
    expect(two).toEqual(one);
  });

  it('share document frequencies and fingerprints across a sweep of k through the cache', async () => {
    const cache = new Map<string, Promise<unknown>>();
    const r3 = await runKernel(planFor({ k: 3 }), docs, 1, cache);
    const size = cache.size;
    const r1 = await runKernel(planFor({ k: 1 }), docs, 1, cache);
    expect(cache.size).toBe(size);
    expect(r1.tables['simhash-signatures']).toEqual(r3.tables['simhash-signatures']);
    expect(r1.rows.every((r) => r3.rows.includes(r))).toBe(true);
    expect(r1.rows.length).toBeLessThan(r3.rows.length);
  });

  it('report a signature for every document with features, and pairs scored 1 − d/64 with d ≤ k', async () => {
    const r = runJobs(planFor({ k: 2 }), docs);
    const sig = r.tables['simhash-signatures'] ?? [];
    expect(sig.length + (r.counters['simhash-fingerprints']?.documents_without_features ?? 0)).toBe(docs.texts.length);
    expect(sig.every(([, hex]) => /^[0-9a-f]{16}$/.test(hex))).toBe(true);
    expect(r.rows.every((row) => [1, 63 / 64, 62 / 64].includes(Number(row.split(' ')[2])))).toBe(true);
  });
});

describe('simhash on the local backend', () => {
  it.each([1, 2])('gives the kernel’s pairs, tables and counters with its text jobs on %i thread(s), meta read from documents-meta', async (workers) => {
    const { runPlan } = await import('../../support/run-plan.ts');
    const params = { k: 3, metadata: { fields: ['subject', 'from'] }, tag_boost: true };
    const kernel = await runPlan('simhash', params, docs, { engine: 'auto', workers, seed });
    const jobs = await runPlan('simhash', params, docs, { engine: 'jobs', workers, seed, memoryMb: 4 });
    expect(jobs.rows).toEqual(kernel.rows);
    // the harness sorts table rows when it writes them; the engines' record order is their own
    const sorted = (t: typeof jobs.outputs.tables) => Object.fromEntries(Object.entries(t ?? {}).map(([k, v]) => [k, [...v].sort((x, y) => Number(x[0]) - Number(y[0]))]));
    expect(sorted(jobs.outputs.tables)).toEqual(sorted(kernel.outputs.tables));
    expect(jobs.counters).toEqual(kernel.counters);
    // and the same as this file's own runner of the plan's jobs
    expect(kernel.rows).toEqual(runJobs(planFor(params), docs).rows);
  });
});

describe('cluster sizes (thesis §6.3)', () => {
  it("list each paired document's cluster size, and the adapter's measures follow from the counters", async () => {
    const { clusterSizes } = await import('../../../algorithms/simhash/clusters.ts');
    const { clusterStats } = await import('./support.ts');
    const { adapter } = await import('../../../algorithms/simhash/index.ts');
    const r = runJobs(planFor({ k: 3 }), docs);
    const a = r.rows.map((row) => Number(row.split(' ')[0]));
    const b = r.rows.map((row) => Number(row.split(' ')[1]));
    const sizes = clusterSizes(docs.texts.length, { a, b });
    expect(r.tables['simhash-clusters']).toEqual(
      [...sizes].flatMap((s, d) => (s > 1 ? [[String(d), String(s)] as const] : [])),
    );
    const signed = new Set((r.tables['simhash-signatures'] ?? []).map(([d]) => Number(d)));
    const stats = clusterStats(sizes, (d) => signed.has(d));
    const measured = { groundTruth: false, counters: r.counters, candidates: null };
    const value = (key: string): number | null => {
      const m = adapter.measures?.find((x) => x.key === key);
      return m && 'value' in m ? m.value(measured, measured) : null;
    };
    expect(stats.withDuplicates).toBeGreaterThan(10);
    expect(value('mean_cluster_size')).toBeCloseTo(stats.mean as number, 12);
    expect(value('mean_dup_cluster_size')).toBeCloseTo(stats.meanWithDuplicates as number, 12);
  });
});

describe('document frequencies from a file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'simhash-df-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('give the corpus run when the file holds the corpus counts, plain or gzipped', async () => {
    const fromCorpus = planFor({});
    const dfRecords = runJobInMemory(fromCorpus.jobs[0]!, Array.from(docs.texts).map((t, i) => [String(i), t] as const)).records;
    expect(fromCorpus.jobs[0]!.output).toBe(DF_OUTPUT);
    const text = dfRecords.map(([k, v]) => `${k}\t${v}\n`).join('');
    writeFileSync(join(dir, 'df.tsv'), text);
    writeFileSync(join(dir, 'df.tsv.gz'), gzipSync(text));
    const expected = runJobs(fromCorpus, docs);
    for (const path of [join(dir, 'df.tsv'), join(dir, 'df.tsv.gz')]) {
      const p = planFor({ document_frequencies: { from: 'file', path } });
      expect(p.jobs.map((j) => j.name)).toEqual(['simhash-fingerprints', 'simhash-hamming', 'simhash-clusters']);
      const jobs = runJobs(p, docs);
      expect(jobs.rows).toEqual(expected.rows);
      expect(jobs.tables).toEqual(expected.tables);
      const kernel = await runKernel(p, docs);
      expect(kernel.rows).toEqual(expected.rows);
      expect(kernel.tables).toEqual(expected.tables);
    }
  });

  it('name the file and line of a bad record in an InputFileError, in the jobs and in the kernel', async () => {
    // The parameters refuse a bad file (config.test.ts); a file spoiled after they were checked
    // is still refused where the tasks load it.
    const bad = join(dir, 'bad.tsv');
    writeFileSync(bad, '\t10\nword\t3\n');
    const p = planFor({ document_frequencies: { from: 'file', path: bad } });
    writeFileSync(bad, '\t10\nword\tmany\n');
    const message = `document frequencies ${bad}:2: not "feature<TAB>df" with df a positive integer: "word\\tmany"`;
    expect(() => runJobs(p, { ids: ['a'], texts: ['word'] })).toThrow(InputFileError);
    expect(() => runJobs(p, { ids: ['a'], texts: ['word'] })).toThrow(new InputFileError(message));
    await expect(runKernel(p, { ids: ['a'], texts: ['word'] })).rejects.toBeInstanceOf(InputFileError);
    await expect(runKernel(p, { ids: ['a'], texts: ['word'] })).rejects.toThrow(new InputFileError(message));
    const noN = join(dir, 'non.tsv');
    writeFileSync(noN, '\t10\nword\t3\n');
    const q = planFor({ document_frequencies: { from: 'file', path: noN } });
    writeFileSync(noN, 'word\t3\n');
    expect(() => runJobs(q, { ids: ['a'], texts: ['word'] })).toThrow(new InputFileError(`document frequencies ${noN}: no "<TAB>N" line giving the number of documents counted`));
  });
});
