/**
 * One writer per run folder: `<results>/<experiment>/.lock-<run-id>` holds the writer's pid, host
 * and start time while a run is written. It is created exclusively (O_EXCL), so of two runs of
 * one run id exactly one gets it; the other is refused with the holder's name. A lock whose
 * process is dead (same host, no such pid) is stale and taken over with a notice.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.ts';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly started: string;
}

/** Whether a process of this host with this pid exists (EPERM: it does, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockPath(experimentDir: string, runId: string): string {
  return join(experimentDir, `.lock-${runId}`);
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.started === 'string' ? (h as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

export class RunLock {
  private released = false;

  private constructor(readonly path: string) {}

  /** Takes the lock of `runId` in `experimentDir`, or throws a UserError naming who holds it. */
  static acquire(experimentDir: string, runId: string, shownDir: string, notice: (line: string) => void): RunLock {
    const path = lockPath(experimentDir, runId);
    const me: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        writeFileSync(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
        return new RunLock(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readHolder(path);
      if (holder && holder.host === me.host && !processAlive(holder.pid)) {
        rmSync(path, { force: true });
        notice(`note: removed the stale lock of ${shownDir} (pid ${holder.pid} started ${holder.started} is gone)`);
        continue;
      }
      if (holder) {
        throw new UserError(`${shownDir} is being written by pid ${holder.pid} on ${holder.host} since ${holder.started}: wait for that run, or give another --run-id`);
      }
      // A lock being written this very moment: its holder is alive; look again.
    }
    throw new UserError(`${shownDir} is being written by another run (lock ${path}): wait for it, or give another --run-id`);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    rmSync(this.path, { force: true });
  }
}
