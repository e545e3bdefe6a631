/**
 * When work goes to worker threads: the one place that weighs a thread's start against the work
 * it would take over. Kernels ask through `KernelContext.worthThreads`; they never look at
 * whether threads are up.
 */

/**
 * Work of fewer steps than this runs on the calling thread when no worker thread is up: starting
 * one costs about as much CPU as ten million small steps (a join's posting steps: 40 ms on a
 * fast machine, 200 on a loaded 2-core VM, where a step takes 4 and 20 ns). The bundled
 * corpus's Broder ground truth, 6.5 M steps, with its corpus and fingerprints replayed (no thread
 * started before the join) went from 1.28 to 1.20 s of wall time and from 1.81 to 1.47 CPU-s.
 * Threads already up (they fingerprinted the corpus) take any work.
 */
export const THREAD_START_STEPS = 10_000_000;

/** Whether work of `steps` steps goes to the threads (THREAD_START_STEPS). */
export function worthThreads(steps: number, threadsUp: boolean): boolean {
  return threadsUp || steps >= THREAD_START_STEPS;
}
