/**
 * A worker thread of the local backend: runs `exportName` of `moduleUrl` on a payload and posts
 * back the result, transferring (not copying) the typed arrays it returns.
 */
import { parentPort } from 'node:worker_threads';
import { transferables } from './transfer.ts';

interface Task {
  /** a preload message (no reply) loads the module only */
  readonly preload?: boolean;
  readonly id: number;
  readonly moduleUrl: string;
  readonly exportName: string;
  readonly payload: unknown;
}

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

port.on('message', (task: Task) => {
  void (async () => {
    if (task.preload) {
      await import(task.moduleUrl).catch(() => undefined);
      return;
    }
    try {
      const mod = (await import(task.moduleUrl)) as Record<string, unknown>;
      const fn = mod[task.exportName];
      if (typeof fn !== 'function') throw new Error(`${task.moduleUrl} has no function ${task.exportName}`);
      const result: unknown = await (fn as (p: unknown) => unknown)(task.payload);
      port.postMessage({ id: task.id, ok: true, result }, transferables(result));
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      port.postMessage({ id: task.id, ok: false, name: err.name, message: err.message, stack: err.stack });
    }
  })();
});
