/**
 * A small pool of worker threads, the runtime's (runtime.ts). Tasks name a module and an export
 * (contract/tasks.ts) instead of shipping code, so any algorithm module can run on the pool
 * without a harness change. With one worker the task runs on the calling thread: no start-up
 * cost for small inputs and tests.
 */
import { Worker } from 'node:worker_threads';
import { InputFileError } from '../../contract/errors.ts';
import type { WorkerTask } from '../../contract/tasks.ts';
import { runHere, type TaskRunner } from './tasks.ts';
import { transferables } from './transfer.ts';

/**
 * Where worker threads start: the built CLI's worker bundle (scripts/build.mjs), else the
 * entry that runs the TypeScript sources through tsx.
 */
const WORKER_ENTRY =
  typeof __NDD_BUILT__ !== 'undefined' && __NDD_BUILT__ ? new URL('../../dist/cli/worker.mjs', import.meta.url) : new URL('./worker-entry.js', import.meta.url);

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Queued {
  readonly id: number;
  readonly moduleUrl: string;
  readonly exportName: string;
  readonly payload: unknown;
}

export class WorkerPool implements TaskRunner {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Queued[] = [];
  private readonly pending = new Map<number, Pending>();
  /** the tasks each worker has been sent and not yet answered */
  private readonly busy = new Map<Worker, Set<number>>();
  private nextId = 0;
  private closed = false;
  private stopping: Promise<void> | undefined;
  /** modules every thread loads as it starts, before its first task */
  private preloads: readonly string[] = [];
  /** why the pool stopped: a task asked of it after that rejects with the same reason */
  private stopped: Error = new Error('worker pool is closed');

  /**
   * @param depth how many tasks a worker is sent before it answers the first: more than one
   *   lets a worker start its next task without waiting for the calling thread to hand it over
   *   (a round trip that, on a loaded machine, can cost more than a small task)
   */
  constructor(
    readonly size: number,
    private readonly depth = 1,
  ) {}

  /**
   * Starts the worker threads and has them load `moduleUrls` now, so that thread start-up and
   * module loading overlap other work (reading the corpus) instead of the first task.
   */
  warm(moduleUrls: readonly string[] = []): void {
    this.preloadOnStart(moduleUrls);
    if (this.size <= 1 || this.closed) return;
    while (this.workers.length < this.size) this.idle.push(this.spawn());
  }

  /**
   * Has every thread load `moduleUrls` as it starts; the threads start with the first task.
   * A run whose work is all small (its corpus replayed, its joins done on the calling thread)
   * starts none: on two cores a thread's start costs more CPU than such a join.
   */
  preloadOnStart(moduleUrls: readonly string[]): void {
    this.preloads = [...new Set([...this.preloads, ...moduleUrls])];
  }

  /** Whether a worker thread is up: work handed to the pool now costs no thread's start. */
  get running(): boolean {
    return this.workers.length > 0;
  }

  async run<P, R>(task: WorkerTask<P, R>, payload: P): Promise<R> {
    if (this.closed) throw this.stopped;
    if (this.size <= 1) return runHere(task, payload);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.queue.push({ id, moduleUrl: task.moduleUrl, exportName: task.exportName, payload });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let w = this.idle.pop();
      if (!w && this.workers.length < this.size) w = this.spawn();
      if (!w && this.depth > 1) w = this.leastBusy();
      if (!w) return;
      const task = this.queue.shift() as Queued;
      const tasks = this.busy.get(w) ?? new Set<number>();
      try {
        w.postMessage(task, transferables(task.payload));
      } catch (e) {
        // A payload that cannot be sent (an array already transferred to another task, say) is
        // that task's error, not a silent hang: the worker never saw it.
        if (tasks.size === 0) this.idle.push(w);
        this.pending.get(task.id)?.reject(e instanceof Error ? e : new Error(String(e)));
        this.pending.delete(task.id);
        continue;
      }
      tasks.add(task.id);
      this.busy.set(w, tasks);
      w.ref();
    }
  }

  /** The worker with the fewest tasks outstanding, when it has room for one more. */
  private leastBusy(): Worker | undefined {
    let best: Worker | undefined;
    let fewest = this.depth;
    for (const w of this.workers) {
      const n = this.busy.get(w)?.size ?? 0;
      if (n < fewest) {
        best = w;
        fewest = n;
      }
    }
    return best;
  }

  private spawn(): Worker {
    const w = new Worker(WORKER_ENTRY);
    for (const url of this.preloads) w.postMessage({ id: -1, moduleUrl: url, exportName: '', payload: null, preload: true });
    w.on('message', (msg: { id: number; ok: boolean; result?: unknown; name?: string; message?: string; stack?: string }) => {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      const tasks = this.busy.get(w);
      tasks?.delete(msg.id);
      if (!tasks || tasks.size === 0) {
        this.busy.delete(w);
        this.idle.push(w);
        // Not while the pool shuts down: an answer that arrives after `shutdown` ref'd the
        // thread would let the process exit with the termination still awaited (exit code 13).
        if (!this.closed) w.unref();
      }
      if (p) {
        if (msg.ok) p.resolve(msg.result);
        else {
          // A detector's bad input file stays the one-line user error it is across the thread boundary.
          const err = msg.name === 'InputFileError' ? new InputFileError(msg.message) : new Error(msg.message);
          if (msg.stack) err.stack = msg.stack;
          p.reject(err);
        }
      }
      this.dispatch();
    });
    w.on('error', (err) => this.fail(w, err));
    w.on('exit', (code) => {
      if (!this.closed && code !== 0) this.fail(w, new Error(`worker thread exited with code ${code}`));
    });
    // A worker keeps the process alive while it has a task (dispatch refs it) and not while it
    // is idle (corpus/parallel.ts keeps an idle pool for a while). After the listeners: attaching
    // a 'message' listener refs the worker again.
    w.unref();
    this.workers.push(w);
    return w;
  }

  private fail(w: Worker, err: Error): void {
    const ids = this.busy.get(w) ?? new Set<number>();
    this.busy.delete(w);
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    const j = this.idle.indexOf(w);
    if (j >= 0) this.idle.splice(j, 1);
    for (const id of ids) {
      this.pending.get(id)?.reject(err);
      this.pending.delete(id);
    }
    this.dispatch();
  }

  /**
   * Stops every task now (an interrupted run must stop within seconds, not when a long join
   * finishes): the threads are terminated and every pending task rejects with `reason`.
   */
  async abort(reason: unknown): Promise<void> {
    await this.shutdown(reason instanceof Error ? reason : new Error(String(reason)));
  }

  async close(): Promise<void> {
    await this.shutdown(new Error('worker pool closed'));
  }

  private shutdown(why: Error): Promise<void> {
    // A second shutdown (close after an abort) waits for the first one's threads to stop: its
    // caller may remove the folder those threads were writing in.
    this.stopping ??= this.stopAll(why);
    return this.stopping;
  }

  private async stopAll(why: Error): Promise<void> {
    if (!this.closed) this.stopped = why;
    this.closed = true;
    this.queue.length = 0;
    const ws = this.workers.splice(0);
    // The threads stop before their tasks reject: a caller that removes a task's files when it
    // rejects must not race a thread still writing them. An idle thread is unref'd: ref'd again,
    // so that the process waits for the termination instead of exiting with the await unsettled.
    for (const w of ws) w.ref();
    await Promise.all(ws.map((w) => w.terminate()));
    for (const p of this.pending.values()) p.reject(why);
    this.pending.clear();
  }
}
