/**
 * Counters, as Hadoop keeps them: group → name → amount. A `count()` call creates its counter,
 * whatever the amount (0 included), in the text jobs and in a kernel alike: a kernel must call
 * count() exactly where its jobs would. An absent counter in a group that exists means zero, and
 * an absent group means the job's counters never arrived (an EMR step whose counters were not
 * fetched).
 */
export type Counters = Record<string, Record<string, number>>;

/** A counter named by its group and name. */
export interface CounterRef {
  readonly group: string;
  readonly name: string;
}

/** The counter's value: 0 when its group exists without it, null when the group is missing. */
export function readCounter(counters: Counters, ref: CounterRef): number | null {
  const group = counters[ref.group];
  if (group === undefined) return null;
  return group[ref.name] ?? 0;
}

/** Adds `add` into `into`, counter by counter. */
export function addCounters(into: Counters, add: Counters): void {
  for (const [g, names] of Object.entries(add)) {
    const group = (into[g] ??= {});
    for (const [n, v] of Object.entries(names)) group[n] = (group[n] ?? 0) + v;
  }
}

/**
 * For a kernel standing in for jobs that count once per event (a document without sentences, a
 * pair written): the jobs create such a counter only when the event happens, so the kernel counts
 * it only when its total is positive.
 */
export function countIfAny(k: { count(group: string, name: string, amount?: number): void }, group: string, name: string, amount: number): void {
  if (amount > 0) k.count(group, name, amount);
}
