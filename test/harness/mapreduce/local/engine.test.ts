import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLines } from '../../../../harness/mapreduce/lines.ts';
import { runPlanJobs } from '../../../../harness/mapreduce/local/engine.ts';
import { runPlanJobsParallel } from '../../../../harness/mapreduce/local/parallel-engine.ts';
import { WorkerPool } from '../../../../harness/runtime/pool.ts';
import { decodeRecord } from '../../../../harness/mapreduce/records.ts';
import { plan } from './toy-plan.ts';

const docs = { ids: ['a', 'b', 'c'], texts: ['the cat the hat', 'a cat\tand a bat\nthe end', 'hat hat'] };

function dataset(paths: string | readonly string[]): [string, string][] {
  return (typeof paths === 'string' ? [paths] : paths)
    .flatMap((p) => [...readLines(p)].map(decodeRecord))
    .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('in-process MapReduce engine', () => {
  // counted by hand: the 3, cat 2, hat 3, a 2, and 1, bat 1, end 1 (13 words)
  const expectedCounts = [
    ['a', '2'],
    ['and', '1'],
    ['bat', '1'],
    ['cat', '2'],
    ['end', '1'],
    ['hat', '3'],
    ['the', '3'],
  ];

  it('runs map, combine, shuffle and reduce', () => {
    const r = runPlanJobs(plan, docs, { workDir: dir, memoryBudgetBytes: 1 << 20 });
    expect(dataset(r.datasets.get('counts') as string)).toEqual(expectedCounts);
    expect(r.counters.words?.seen).toBe(13);
  });

  it('serves an earlier output as side data and runs map-only jobs', () => {
    const r = runPlanJobs(plan, docs, { workDir: dir, memoryBudgetBytes: 1 << 20 });
    expect(dataset(r.datasets.get('stopwords') as string)).toEqual([['the', '']]);
    expect(dataset(r.datasets.get('groups') as string)).toEqual([
      ['1', 'and,bat,end'],
      ['2', 'a,cat'],
      ['3', 'hat'],
    ]);
  });

  it('spills sorted runs past its budget and merges them to the same result', () => {
    const r = runPlanJobs(plan, docs, { workDir: join(dir), memoryBudgetBytes: 100 });
    expect(r.spills.count).toBeGreaterThan(1);
    expect(readdirSync(dir).filter((f) => f.startsWith('count.spill')).length).toBe(r.spills.count);
    expect(dataset(r.datasets.get('counts') as string)).toEqual(expectedCounts);
  });

  it('stops between jobs when aborted', () => {
    const c = new AbortController();
    c.abort(new Error('stop'));
    expect(() => runPlanJobs(plan, docs, { workDir: dir, memoryBudgetBytes: 1 << 20, signal: c.signal })).toThrow('stop');
  });
});

describe('in-process MapReduce engine on two worker threads', () => {
  const planModule = new URL('./toy-plan.ts', import.meta.url).href;
  const run = async (budget: number) => {
    const pool = new WorkerPool(2);
    try {
      return await runPlanJobsParallel({ algorithm: 'toy', params: {}, minScore: 0, seed: 0 }, plan, docs, {
        workDir: dir,
        memoryBudgetBytes: budget,
        parallelism: 2,
        planModule,
        tasks: pool,
      });
    } finally {
      await pool.close();
    }
  };

  it('gives the one-thread results, with side data and a map-only job, over two reduce partitions', async () => {
    const one = runPlanJobs(plan, docs, { workDir: join(dir), memoryBudgetBytes: 1 << 20 });
    const two = await run(1 << 20);
    for (const name of ['counts', 'stopwords', 'groups']) {
      expect(dataset(two.datasets.get(name) as string[])).toEqual(dataset(one.datasets.get(name) as string));
    }
    expect(two.datasets.get('counts')).toHaveLength(2);
    expect(two.counters).toEqual(one.counters);
  });

  it('spills sorted runs in each map task past its share of the budget', async () => {
    const two = await run(200);
    expect(two.spills.count).toBeGreaterThan(2);
    expect(dataset(two.datasets.get('groups') as string[])).toEqual([
      ['1', 'and,bat,end'],
      ['2', 'a,cat'],
      ['3', 'hat'],
    ]);
  });
});
