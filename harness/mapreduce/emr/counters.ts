/**
 * Hadoop counters from an EMR step log. The EMR API does not return counters; the job client
 * prints a block into the step's `syslog`/`stderr`, which `../hadoop/counters.ts` parses.
 */
import type { Counters } from '../../../contract/index.ts';
import { HADOOP_GROUPS } from '../hadoop/counters.ts';

export { parseCountersBlock } from '../hadoop/counters.ts';

export function mergeJobCounters(into: Counters, job: string, block: Counters): void {
  for (const [group, names] of Object.entries(block)) {
    const target = (into[HADOOP_GROUPS.has(group) ? `hadoop ${job}: ${group}` : group] ??= {});
    for (const [name, n] of Object.entries(names)) target[name] = (target[name] ?? 0) + n;
  }
}

/** CPU seconds of all tasks from Hadoop's "CPU time spent (ms)", summed over the jobs. */
export function cpuSecondsOf(counters: Counters): number {
  let ms = 0;
  for (const [group, names] of Object.entries(counters)) {
    if (group.endsWith(': Map-Reduce Framework')) ms += names['CPU time spent (ms)'] ?? 0;
  }
  return ms / 1000;
}
