/**
 * A small plan over text records for the engine tests: word counts (with a combiner), a
 * map-only job, and a job that reads an earlier output as side data. `findPlan` makes it
 * loadable by the worker-thread tasks, as algorithms/plans.ts does for real algorithms.
 */
import type { Plan } from '../../../../contract/index.ts';
import { DOCUMENTS, type JobSpec } from '../../../../contract/index.ts';

/** word → count, then (with the stop-word list as side data) count → words, map-only upper-casing last. */
export const wordCount: JobSpec = {
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
export const stop: JobSpec = {
  name: 'stop',
  description: 'the words to ignore',
  inputs: [DOCUMENTS],
  output: 'stopwords',
  mapper: (ctx) => ({ map: (doc) => doc === '0' && ctx.emit('the', '') }),
};
export const byCount: JobSpec = {
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
export const plan: Plan = {
  jobs: [wordCount, stop, byCount],
  output: { pairs: 'groups', score: { kind: 'other', why: 'a toy' }, decisions: { kind: 'every-reported-pair' } },
};

export async function findPlan(name: string): Promise<(() => Plan) | undefined> {
  return name === 'toy' ? () => plan : undefined;
}
