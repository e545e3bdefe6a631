/**
 * Runs corpus reads in a worker thread with a time bound per read: a read that does not end in
 * time is reported as a hang and the thread is replaced (an endless synchronous loop cannot be
 * interrupted any other way).
 */
import { Worker } from 'node:worker_threads';
import type { CorpusStats } from '../../../harness/corpus/read.ts';

export interface ReadResult {
  readonly kind: 'done';
  readonly docs: { id: string; text: string; meta?: Record<string, string> }[];
  readonly stats: CorpusStats;
  readonly error?: { name: string; message: string; userError: boolean; stack: string };
}

export type ReadOutcome = ReadResult | { readonly kind: 'hang'; readonly ms: number; readonly state: string };

const WORKER = new URL('./worker.mjs', import.meta.url);

export class ReaderSandbox {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private seq = 0;
  /** A crash of the worker that happened between two reads (reported by the next read). */
  private crash: Error | undefined;
  private onPong: ((state: unknown) => void) | undefined;
  private waiting: { seq: number; resolve: (r: ReadResult) => void; reject: (e: Error) => void } | undefined;

  private start(): Promise<void> {
    const worker = new Worker(WORKER);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: { ready?: boolean; seq?: number; pong?: unknown } & ReadResult) => {
        if (m.ready) return resolve();
        if (m.pong) return this.onPong?.(m.pong);
        if (this.waiting && m.seq === this.waiting.seq) {
          const w = this.waiting;
          this.waiting = undefined;
          w.resolve({ ...m, kind: 'done' });
        }
      });
    });
    // An uncaught exception in the worker (e.g. an 'error' event of a stream nobody listens to)
    // ends it: that is a crash of the reader, reported on the read that is waiting or the next one.
    const died = (e: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const crash = new Error(`the reader crashed the process (uncaught ${e.name}: ${e.message})\n${e.stack ?? ''}`);
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w.reject(crash);
      } else {
        this.crash = crash;
      }
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`reader worker exited with code ${code}`)));
    return this.ready;
  }

  /** The reads, one after the other: fast-check's time limit may abandon a read that then still runs. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Reads `path` as `format`; a read that takes longer than `timeoutMs` is a hang. */
  read(format: string, path: string, timeoutMs: number, options: Record<string, unknown> = {}): Promise<ReadOutcome> {
    const next = this.queue.then(() => this.readNow(format, path, timeoutMs, options));
    this.queue = next.catch(() => {});
    return next;
  }

  private async readNow(format: string, path: string, timeoutMs: number, options: Record<string, unknown>): Promise<ReadOutcome> {
    if (this.crash) {
      const crash = this.crash;
      this.crash = undefined;
      throw new Error(`after the previous read: ${crash.message}`, { cause: crash });
    }
    if (!this.worker) await this.start();
    else await this.ready;
    const worker = this.worker as Worker;
    const seq = ++this.seq;
    let timer: NodeJS.Timeout | undefined;
    const result = new Promise<ReadResult>((resolve, reject) => {
      this.waiting = { seq, resolve, reject };
    });
    const timeout = new Promise<'hang'>((resolve) => {
      timer = setTimeout(() => resolve('hang'), timeoutMs);
    });
    worker.postMessage({ seq, format, path, options });
    try {
      const r = await Promise.race([result, timeout]);
      if (r !== 'hang') return r;
      // A worker that still answers is waiting for something (an async hang); one that does not is in an endless loop.
      const state = await new Promise<unknown>((resolve) => {
        const t = setTimeout(() => resolve('no answer: busy (an endless loop?)'), 1000);
        this.onPong = (s) => {
          clearTimeout(t);
          resolve(s);
        };
        worker.postMessage({ ping: true });
      });
      this.onPong = undefined;
      this.waiting = undefined;
      this.worker = undefined; // (before terminate: its exit is not a crash)
      await worker.terminate();
      return { kind: 'hang', ms: timeoutMs, state: `read ${seq}: ${JSON.stringify(state)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.queue;
    const w = this.worker;
    this.worker = undefined; // (before terminate: its exit is not a crash)
    await w?.terminate();
  }
}
