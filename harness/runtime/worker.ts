/**
 * A worker thread of the runtime's pool (pool.ts): runs `exportName` of `moduleUrl` on a payload and posts
 * back the result, transferring (not copying) the typed arrays it returns.
 */
import { parentPort } from 'node:worker_threads';
import { importModule } from '../build/import-module.ts';
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

/**
 * Modules by URL, imported once: `import()` of a loaded module still asks the loader's resolve
 * hooks, which under tsx live on another thread — a round trip per task that, on a loaded
 * machine, cost more than the reader's batches themselves.
 */
const modules = new Map<string, Promise<Record<string, unknown>>>();

function load(url: string): Promise<Record<string, unknown>> {
  let mod = modules.get(url);
  if (!mod) {
    mod = importModule(url);
    modules.set(url, mod);
    mod.catch(() => modules.delete(url));
  }
  return mod;
}

async function perform(task: Task): Promise<void> {
  if (task.preload) {
    await load(task.moduleUrl).catch(() => undefined);
    return;
  }
  try {
    const mod = await load(task.moduleUrl);
    const fn = mod[task.exportName];
    if (typeof fn !== 'function') throw new Error(`${task.moduleUrl} has no function ${task.exportName}`);
    const result: unknown = await (fn as (p: unknown) => unknown)(task.payload);
    port!.postMessage({ id: task.id, ok: true, result }, transferables(result));
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    port!.postMessage({ id: task.id, ok: false, name: err.name, message: err.message, stack: err.stack });
  }
}

/**
 * Tasks run one after another, in the order they came: a worker sent several (WorkerPool's
 * `depth`) answers the first as soon as it is done instead of interleaving them at every await.
 */
let queue: Promise<void> = Promise.resolve();
port.on('message', (task: Task) => {
  queue = queue.then(() => perform(task));
});
