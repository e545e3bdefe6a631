/**
 * Hadoop counters from the job client's log: it prints a block when a job ends (research doc §1.9):
 *
 *   … INFO mapreduce.Job: Counters: 54
 *   <TAB>File System Counters
 *   <TAB><TAB>S3: Number of bytes read=1234
 *   <TAB>broder
 *   <TAB><TAB>shingles=99
 *
 * The tasks' `reporter:counter:group,name,amount` lines are summed by Hadoop into this block.
 * The `hadoop` backend reads it from `hadoop jar`'s output, the EMR backend from a step's log.
 */
import type { Counters } from '../../../contract/index.ts';

const HEADER = /Counters: \d+\s*$/;
const COUNTER = /^\t\t(.+)=(-?\d+)\s*$/;
const GROUP = /^\t([^\t].*?)\s*$/;

/** The last Counters block in the log (a retried job prints more than one), or undefined. */
export function parseCountersBlock(log: string): Counters | undefined {
  const lines = log.split(/\r?\n/);
  let start = -1;
  for (let i = 0; i < lines.length; i++) if (HEADER.test(lines[i] as string)) start = i;
  if (start < 0) return undefined;
  const out: Counters = {};
  let group: Record<string, number> | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const c = COUNTER.exec(line);
    if (c && group) {
      group[c[1] as string] = (group[c[1] as string] ?? 0) + Number(c[2]);
      continue;
    }
    const g = GROUP.exec(line);
    if (g) {
      group = out[g[1] as string] ??= {};
      continue;
    }
    break;
  }
  return out;
}

/** Hadoop's own groups, kept per job; the jobs' groups are summed across jobs as the other backends do. */
export const HADOOP_GROUPS = new Set([
  'File System Counters', 'Job Counters', 'Map-Reduce Framework', 'Shuffle Errors',
  'File Input Format Counters', 'File Output Format Counters',
  'org.apache.hadoop.mapreduce.FileSystemCounter', 'org.apache.hadoop.mapreduce.JobCounter',
  'org.apache.hadoop.mapreduce.TaskCounter',
]);
