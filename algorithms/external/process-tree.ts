/**
 * The cost of a process tree on Linux, read from /proc (docs/design.md §10.3's peak_rss_mb for
 * a command). CPU is exact: once a child is reaped, the kernel adds its CPU time and that of
 * every descendant it reaped to the parent's `cutime` and `cstime` (/proc/self/stat), so the
 * difference across the command is the tree's. Memory cannot be read after the processes end,
 * so it is sampled while they run: at each sample the resident sets of the tree's live
 * processes are summed, and each process' own peak (VmHWM) is read too; the tree's peak is the
 * larger of the highest sum and the highest single peak. For a command of one process that is
 * its exact peak up to the last sample; for several processes at once, a sampled lower bound.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;

export const PEAK_RSS_METHOD = 'the larger of the highest sum of the tree\'s resident sets and the highest single-process VmHWM, sampled from /proc';

/** CPU seconds of the reaped children of this process so far (user + system); undefined off Linux. */
export function reapedChildrenCpuS(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; cutime is 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The live processes of the tree rooted at `root` (root included), through /proc's children lists. */
export function treeOf(root: number): number[] {
  const seen: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // ended between the listing and now
    }
    seen.push(pid);
    for (const t of tasks) {
      try {
        for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ')) if (c !== '') queue.push(Number(c));
      } catch {
        // the thread ended
      }
    }
  }
  return seen;
}

/** VmRSS and VmHWM of one process in kB; undefined when it has ended (or is a zombie). */
function memoryKb(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    return rss && hwm ? { rss: Number(rss[1]), hwm: Number(hwm[1]) } : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a tree's memory until `stop`; `peakMb` is the tree's peak as the header describes. */
export class TreeMemorySampler {
  private peakKb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    intervalMs: number,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    let sum = 0;
    for (const pid of treeOf(this.root)) {
      const m = memoryKb(pid);
      if (m === undefined) continue;
      sum += m.rss;
      this.peakKb = Math.max(this.peakKb, m.hwm);
    }
    this.peakKb = Math.max(this.peakKb, sum);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  get peakMb(): number {
    return this.peakKb / 1024;
  }
}
