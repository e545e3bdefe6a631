/**
 * Worker tasks as typed handles. A kernel names the code a worker thread runs by its module's
 * URL (a thread loads it by URL; the build bundles every module named so) and the export's
 * name. The name is checked against the module's type, so renaming an export fails to
 * compile, and the handle carries the export's payload and answer types:
 *
 *   import type * as Join from './join.ts';
 *   const join = workerModule<typeof Join>(new URL('./join.ts', import.meta.url).href);
 *   const r = await k.runInWorker(join.task('scanCount'), payload); // r: ScanResult
 */

/** A function of one argument, sync or async: what a worker task's export is. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TaskFunction = (payload: any) => unknown;

/** The names of `M`'s exports that a worker can run. */
export type TaskName<M> = { [K in keyof M]: M[K] extends TaskFunction ? K : never }[keyof M] & string;

/** The export `exportName` of the module at `moduleUrl`, taking `P` and answering `R`. */
export interface WorkerTask<P, R> {
  readonly moduleUrl: string;
  readonly exportName: string;
  /** never set: carries the types */
  readonly types?: { readonly payload: P; readonly answer: R };
}

/** The payload a task takes and the answer it gives. */
export type TaskPayload<T> = T extends WorkerTask<infer P, unknown> ? P : never;
export type TaskAnswer<T> = T extends WorkerTask<unknown, infer R> ? R : never;

type TaskOf<M, K extends TaskName<M>> = M[K] extends (payload: infer P) => infer R ? WorkerTask<P, Awaited<R>> : never;

/** A module whose exports run on worker threads. */
export interface WorkerModule<M> {
  readonly url: string;
  task<K extends TaskName<M>>(exportName: K): TaskOf<M, K>;
}

/** `M` is the module's type (`typeof import`): only its function exports are tasks. */
export function workerModule<M>(url: string): WorkerModule<M> {
  return { url, task: (exportName) => ({ moduleUrl: url, exportName }) as never };
}
