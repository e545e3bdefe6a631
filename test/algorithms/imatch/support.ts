/**
 * Runs I-Match's plan for the tests: its jobs as Hadoop would (several map tasks, a combiner run
 * once per task or not at all, values reaching reducers in either order), its kernel in process
 * or on worker threads, and a brute-force computation straight from the definitions.
 */
import { DOCUMENTS, type Counters, type DocumentSet, type Plan, type Reducer, type SideRecord } from '../../../contract/index.ts';
import { plan as imatchPlan } from '../../../algorithms/imatch/plan.ts';
import { imatchParams } from '../../../algorithms/imatch/params.ts';
import { dropMask } from '../../../algorithms/text/lexicon.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { byKey, contextFor, forEachGroup, type Pair } from '../../../harness/mapreduce/local/engine.ts';
import type { WorkerPool } from '../../../harness/runtime/pool.ts';
import { pairRows, runPlanKernel } from '../../support/kernel-and-jobs.ts';
import { createHash } from 'node:crypto';

export interface Output {
  /** `a b score`, sorted */
  readonly rows: string[];
  readonly counters: Counters;
  /** the signatures table, `doc value` sorted */
  readonly table: string[];
}

export function planFor(raw: unknown, seed = 1): Plan {
  return imatchPlan(imatchParams.parse(raw), { minScore: Number.MIN_VALUE, seed });
}

export interface JobOptions {
  /** map tasks each job's input is cut into */
  readonly mapTasks: number;
  /** whether combiners run (once per map task) */
  readonly combine: boolean;
  /** values reach a reducer in reverse order */
  readonly reverse: boolean;
}

export function runJobs(plan: Plan, docs: DocumentSet, o: JobOptions): Output {
  const datasets = new Map<string, SideRecord[]>([[DOCUMENTS, Array.from(docs.texts).map((t, i) => [String(i), t] as const)]]);
  const counters: Counters = {};
  for (const job of plan.jobs) {
    const side = new Map(job.side?.map((s) => [s, datasets.get(s) as SideRecord[]]));
    const input = job.inputs.flatMap((name) => datasets.get(name) as SideRecord[]);
    const out: SideRecord[] = [];
    const emitOut = (k: string, v: string): void => void out.push([k, v]);
    const shuffled: Pair[] = [];
    const size = Math.ceil(input.length / o.mapTasks);
    for (let t = 0; t < o.mapTasks; t++) {
      const mapped: Pair[] = [];
      const mapper = job.mapper(contextFor(counters, side, job.reducer ? (k, v) => void mapped.push([k, v]) : emitOut));
      for (const [k, v] of input.slice(t * size, (t + 1) * size)) mapper.map(k, v);
      mapper.close?.();
      if (job.combiner && o.combine) {
        const combiner = job.combiner(contextFor(counters, side, (k, v) => void shuffled.push([k, v])));
        forEachGroup(mapped.sort(byKey), combiner);
        combiner.close?.();
      } else shuffled.push(...mapped);
    }
    if (job.reducer) {
      const inner = job.reducer(contextFor(counters, side, emitOut));
      const reducer: Reducer = { reduce: (k, values) => inner.reduce(k, o.reverse ? [...values].reverse() : values) };
      // a stable sort keeps values in map order; `reverse` flips them
      forEachGroup(shuffled.sort(byKey), reducer);
      inner.close?.();
    }
    datasets.set(job.output, out);
  }
  const pairs = (datasets.get(plan.output.pairs) ?? []).map(([k, v]) => `${k.replace(':', ' ')} ${Number(v)}`);
  const table = (datasets.get(plan.output.tables?.[0]?.dataset ?? '') ?? []).map(([k, v]) => `${k} ${v}`);
  return { rows: pairs.sort(), counters, table: table.sort() };
}

/** Runs the kernel; `pool` puts its worker tasks on real worker threads. */
export async function runKernel(plan: Plan, docs: DocumentSet, pool?: WorkerPool, cache = new Map<string, Promise<unknown>>()): Promise<Output> {
  const { result: r, counters } = await runPlanKernel(plan, docs, { ...(pool ? { pool } : {}), cache });
  const table = Object.values(r.tables ?? {})[0]?.map(([k, v]) => `${k} ${v}`) ?? [];
  return { rows: pairRows(r.pairs), counters, table: table.sort() };
}

export interface BruteParams {
  readonly idf_min: number;
  readonly idf_max: number;
  readonly extra_lexicons: number;
  readonly drop: number;
}

/**
 * I-Match from the definitions, over every pair of documents: words by splitting the normalized
 * text, idf by the formula, lexicon j the base less `dropMask` (the definition of the random
 * choice), and two documents sharing lexicon j's signature when their lexicon-j word sets are
 * equal and not empty (compared as sets, not through any hash).
 */
export function bruteForce(texts: readonly string[], p: BruteParams, seed = 1): { rows: string[]; collisions: number; without: number } {
  const sets = texts.map((t) => new Set(normalize(t).split(' ').filter((w) => w !== '')));
  const N = texts.length;
  const df = new Map<string, number>();
  for (const s of sets) for (const w of s) df.set(w, (df.get(w) ?? 0) + 1);
  const base = [...df.keys()].filter((w) => {
    const idf = N <= 1 ? 0 : Math.log(N / (df.get(w) as number)) / Math.log(N);
    return idf >= p.idf_min && idf <= p.idf_max;
  });
  const lexicons: Set<string>[] = [new Set(base)];
  for (let j = 1; j <= p.extra_lexicons; j++) {
    const mask = dropMask(base, j, p.drop, seed);
    lexicons.push(new Set(base.filter((_, i) => mask[i] === 0)));
  }
  const restricted = sets.map((s) => lexicons.map((L) => [...s].filter((w) => L.has(w)).sort().join('\n')));
  const rows: string[] = [];
  let collisions = 0;
  for (let a = 0; a < N; a++) {
    for (let b = a + 1; b < N; b++) {
      let c = 0;
      lexicons.forEach((_, j) => {
        const x = (restricted[a] as string[])[j] as string;
        if (x !== '' && x === (restricted[b] as string[])[j]) c++;
      });
      collisions += c;
      if (c > 0) rows.push(`${a} ${b} ${c / lexicons.length}`);
    }
  }
  const without = restricted.filter((r) => r[0] === '').length;
  return { rows: rows.sort(), collisions, without };
}

export const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex');
