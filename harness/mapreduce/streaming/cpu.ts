/**
 * CPU time of child processes. Node reports only its own rusage, but the kernel accumulates
 * the user and system time of every child this process has waited for (libuv reaps them all)
 * in /proc/self/stat fields 16 and 17 (cutime, cstime), in clock ticks.
 */
import { readFileSync } from 'node:fs';

/** USER_HZ: 100 on every Linux ABI Node runs on (sysconf(_SC_CLK_TCK)). */
const CLOCK_TICKS_PER_S = 100;

/** Seconds of CPU used by reaped children so far, or undefined where /proc is missing (not Linux). */
export function reapedChildrenCpuS(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may contain spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the name start at field 3 (state); cutime is field 16, cstime field 17.
  const cutime = Number(fields[16 - 3]);
  const cstime = Number(fields[17 - 3]);
  if (!Number.isFinite(cutime) || !Number.isFinite(cstime)) return undefined;
  return (cutime + cstime) / CLOCK_TICKS_PER_S;
}
