/**
 * A variant's own peak memory. Linux keeps the process's peak RSS (VmHWM) and lets a process
 * reset it to the current RSS (`echo 5 > /proc/self/clear_refs`, Linux 4.0+), so each variant's
 * peak is measured from its start, across all threads; elsewhere the process's running maximum
 * is the best there is, and run.json says which.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export type PeakMethod = 'per-variant' | 'process-maximum';

/** Starts a new peak; returns how the next reading is measured. */
export function resetPeakRss(): PeakMethod {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return 'per-variant';
  } catch {
    return 'process-maximum';
  }
}

/** The peak RSS in MB since the last reset (or since the process started). */
export function peakRssMb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux: the running maximum below
  }
  return process.resourceUsage().maxRSS / 1024;
}
