import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../../algorithms/types.ts';
import { DOCUMENTS, type JobSpec } from '../../../../harness/mapreduce/job.ts';
import { readLines } from '../../../../harness/mapreduce/lines.ts';
import { runPlanJobs } from '../../../../harness/mapreduce/local/engine.ts';
import { decodeRecord } from '../../../../harness/mapreduce/records.ts';

/** word → count, then (with the stop-word list as side data) count → words, map-only upper-casing last. */
const wordCount: JobSpec = {
  name: 'count',
  description: 'word counts',
  inputs: [DOCUMENTS],
  output: 'counts',
  mapper: (ctx) => ({
    map(_doc, text) {
      for (const w of text.split(/\s+/).filter(Boolean)) {
        ctx.count('words', 'seen');
        ctx.emit(w, '1');
      }
    },
  }),
  combiner: (ctx) => ({ reduce: (k, vs) => ctx.emit(k, String(vs.reduce((s, v) => s + Number(v), 0))) }),
  reducer: (ctx) => ({ reduce: (k, vs) => ctx.emit(k, String(vs.reduce((s, v) => s + Number(v), 0))) }),
};
const stop: JobSpec = {
  name: 'stop',
  description: 'the words to ignore',
  inputs: [DOCUMENTS],
  output: 'stopwords',
  mapper: (ctx) => ({ map: (doc) => doc === '0' && ctx.emit('the', '') }),
};
const byCount: JobSpec = {
  name: 'by-count',
  description: 'words grouped by count, stop words removed',
  inputs: ['counts'],
  output: 'groups',
  side: ['stopwords'],
  mapper: (ctx) => {
    const stopwords = new Set(ctx.side('stopwords').map(([k]) => k));
    return { map: (w, c) => !stopwords.has(w) && ctx.emit(c, w) };
  },
  reducer: (ctx) => ({ reduce: (c, ws) => ctx.emit(c, [...ws].sort().join(',')) }),
};
const plan: Plan = { jobs: [wordCount, stop, byCount], output: { pairs: 'groups' } };
const docs = { ids: ['a', 'b', 'c'], texts: ['the cat the hat', 'a cat\tand a bat\nthe end', 'hat hat'] };

function dataset(path: string): [string, string][] {
  return [...readLines(path)].map(decodeRecord).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
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
