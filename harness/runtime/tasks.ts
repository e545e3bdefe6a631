/**
 * Where worker tasks run (contract/tasks.ts names them): on the runtime's worker pool, or on the
 * calling thread, which the pool itself does with one worker and the tests do to run a kernel
 * without threads.
 */
import type { WorkerTask } from '../../contract/index.ts';
import { importModule } from '../build/import-module.ts';
import { transferables } from './transfer.ts';

/** Runs worker tasks. */
export interface TaskRunner {
  run<P, R>(task: WorkerTask<P, R>, payload: P): Promise<R>;
}

/** The export a task names, loaded; a task whose module lacks it (a stale build) fails with the names. */
export async function taskFunction(moduleUrl: string, exportName: string): Promise<(payload: unknown) => unknown> {
  const fn = (await importModule(moduleUrl))[exportName];
  if (typeof fn !== 'function') throw new Error(`${moduleUrl} has no function ${exportName}`);
  return fn as (payload: unknown) => unknown;
}

/**
 * Runs `task` on the calling thread. `copies`: the payload and the answer are cloned as a
 * thread's messages would be (own typed arrays moved, shared ones shared), so that a test finds
 * a kernel that uses an array it handed to a thread.
 */
export async function runHere<P, R>(task: WorkerTask<P, R>, payload: P, copies = false): Promise<R> {
  const fn = await taskFunction(task.moduleUrl, task.exportName);
  if (!copies) return (await fn(payload)) as R;
  const answer = await fn(structuredClone(payload, { transfer: transferables(payload) }));
  return structuredClone(answer, { transfer: transferables(answer) }) as R;
}
