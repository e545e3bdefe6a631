/**
 * Runs one job in memory as the engines do (map, combine per map task, sort by key, reduce) for
 * unit tests of a detector's jobs: records in, records out, counters. Side datasets are given
 * by name. Keys are compared as JavaScript strings, as the in-process engine sorts them.
 */
import type { Counters, JobSpec, SideRecord } from '../../contract/index.ts';
import { byKey, contextFor, forEachGroup, type Pair } from '../../harness/mapreduce/local/engine.ts';

export interface JobRun {
  readonly records: SideRecord[];
  readonly counters: Counters;
}

export function runJobInMemory(
  job: JobSpec,
  input: Iterable<SideRecord>,
  side: Readonly<Record<string, readonly SideRecord[]>> = {},
): JobRun {
  const counters: Counters = {};
  const sides = new Map(Object.entries(side));
  const records: SideRecord[] = [];
  const out = (k: string, v: string): void => void records.push([k, v]);
  const mapped: Pair[] = [];
  const mapper = job.mapper(contextFor(counters, sides, job.reducer ? (k, v) => void mapped.push([k, v]) : out));
  for (const [k, v] of input) mapper.map(k, v);
  mapper.close?.();
  if (!job.reducer) return { records, counters };
  let shuffled: Pair[] = mapped.sort(byKey);
  if (job.combiner) {
    const combined: Pair[] = [];
    const combiner = job.combiner(contextFor(counters, sides, (k, v) => void combined.push([k, v])));
    forEachGroup(shuffled, combiner);
    combiner.close?.();
    shuffled = combined.sort(byKey);
  }
  const reducer = job.reducer(contextFor(counters, sides, out));
  forEachGroup(shuffled, reducer);
  reducer.close?.();
  return { records, counters };
}
