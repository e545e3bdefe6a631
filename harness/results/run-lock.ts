/**
 * One writer per run folder: `<results>/<experiment>/.lock-<run-id>` holds the writer's pid, host
 * and start time while a run is written. It is created exclusively (O_EXCL), so of two runs of
 * one run id exactly one gets it; the other is refused with the holder's name. A lock whose
 * process is dead (same host, no such pid) is stale and taken over with a notice.
 *
 * Taking over must be atomic too: two runs that both saw the same stale lock must not both
 * remove "it", or the slower one removes the lock the faster one has just created. So the stale
 * lock is removed only by the run that creates, exclusively, the claim
 * `.lock-<run-id>.takeover-<digest of the stale lock's bytes>`, and only while the lock still has
 * those bytes (nobody else can remove or replace them while the claim exists); the claim is
 * removed after the stale lock is gone, and a lock's bytes never recur (the start time and a
 * random nonce are in them). A claim whose process died is reported: the two files are then
 * removed by hand.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { processAlive } from '../runtime/cache-folder.ts';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly started: string;
}

// The one liveness check (the runtime's), for the lock's and the run folder's callers.
export { processAlive };

export function lockPath(experimentDir: string, runId: string): string {
  return join(experimentDir, `.lock-${runId}`);
}

/** The lock's bytes and its holder (undefined when unreadable: absent, or being written this very moment). */
function readLock(path: string): { raw: string; holder: LockHolder | undefined } | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const h = JSON.parse(raw) as Partial<LockHolder>;
    return { raw, holder: typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.started === 'string' ? (h as LockHolder) : undefined };
  } catch {
    return { raw, holder: undefined };
  }
}

export function takeoverPath(path: string, staleRaw: string): string {
  return `${path}.takeover-${createHash('sha256').update(staleRaw).digest('hex').slice(0, 16)}`;
}

/** Blocks the thread for `ms` (acquire is synchronous; the waits are a few milliseconds). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes the stale lock whose bytes were `staleRaw` if this process wins its claim and the lock
 * still has those bytes. `removed`: this call removed it; `gone`: it is no longer there (another
 * run took it over); `busy`: another live run is taking it over; `stuck`: a run died while taking
 * it over (its claim stays).
 */
export function takeOverStale(path: string, staleRaw: string): { readonly kind: 'removed' | 'gone' | 'busy' } | { readonly kind: 'stuck'; readonly claim: string; readonly pid: number } {
  const claim = takeoverPath(path, staleRaw);
  try {
    writeFileSync(claim, `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    let claimer: { pid?: unknown; host?: unknown };
    try {
      claimer = JSON.parse(readFileSync(claim, 'utf8')) as { pid?: unknown; host?: unknown };
    } catch (err) {
      // removed meanwhile: the claimant is done with the stale lock; unparsable: being written
      return { kind: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'busy' };
    }
    if (typeof claimer.pid === 'number' && claimer.host === hostname() && !processAlive(claimer.pid)) return { kind: 'stuck', claim, pid: claimer.pid };
    return { kind: 'busy' };
  }
  try {
    if (readLock(path)?.raw !== staleRaw) return { kind: 'gone' };
    rmSync(path, { force: true });
    return { kind: 'removed' };
  } finally {
    rmSync(claim, { force: true });
  }
}

export class RunLock {
  private released = false;

  private constructor(readonly path: string) {}

  /** Takes the lock of `runId` in `experimentDir`, or throws a UserError naming who holds it. */
  static acquire(experimentDir: string, runId: string, shownDir: string, notice: (line: string) => void): RunLock {
    const path = lockPath(experimentDir, runId);
    const me = { pid: process.pid, host: hostname(), started: new Date().toISOString(), nonce: randomBytes(8).toString('hex') } satisfies LockHolder & { nonce: string };
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        writeFileSync(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
        return new RunLock(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const lock = readLock(path);
      const holder = lock?.holder;
      if (lock && holder && holder.host === me.host && !processAlive(holder.pid)) {
        const t = takeOverStale(path, lock.raw);
        if (t.kind === 'removed') notice(`note: removed the stale lock of ${shownDir} (pid ${holder.pid} started ${holder.started} is gone)`);
        if (t.kind === 'stuck') {
          throw new UserError(`${shownDir}: pid ${t.pid} died while taking over the stale lock ${path}; no run holds it: remove ${path} and ${t.claim}, then run again`);
        }
        if (t.kind === 'busy') sleep(10);
        continue;
      }
      if (holder) {
        throw new UserError(`${shownDir} is being written by pid ${holder.pid} on ${holder.host} since ${holder.started}: wait for that run, or give another --run-id`);
      }
      // A lock being written this very moment (its holder is alive), or just removed: look again.
      sleep(10);
    }
    throw new UserError(`${shownDir} is being written by another run (lock ${path}): wait for it, or give another --run-id`);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    rmSync(this.path, { force: true });
  }
}
