/**
 * What a plan that runs a command outside the harness' process tells the harness about it
 * (`algorithms/external`): where it can run, and what the command's process tree cost. Kept
 * apart from plan.ts so that plans which run in process never see it.
 */

/**
 * A plan that can run on one backend only: a command on this machine has no MapReduce jobs that
 * `streaming` or `emr` could run. Every other backend refuses such a plan before anything runs,
 * in one line giving `why`.
 */
export interface Placement {
  readonly only: 'local';
  readonly why: string;
}

/**
 * The cost of a command's whole process tree, measured by the kernel that ran it: the harness
 * adds it to the variant's own cost (its CPU is not in the process' own `cpuUsage`, its memory
 * not in the process' peak RSS).
 */
export interface ProcessTreeUsage {
  /** seconds from the start of the command to the end of its last process */
  readonly wallS: number;
  /** user + system seconds of the command and every descendant it waited for */
  readonly cpuS: number;
  /** the tree's peak resident memory in MB */
  readonly peakRssMb: number;
  /** how `peakRssMb` was measured, for run.json */
  readonly peakRssMethod: string;
}
