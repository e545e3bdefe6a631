/**
 * Two runs taking over the same stale lock, interleaved in one process: the second run's read of
 * the lock is where the first run does its whole takeover (a hook in readFileSync), so the
 * second acts on what it read before the first replaced the lock.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../../harness/errors.ts';
import { lockPath, RunLock, takeoverPath } from '../../../harness/results/run-lock.ts';
import { deadPid } from '../../support/dead-pid.ts';

const hooks = vi.hoisted(() => ({ onLockRead: undefined as (() => void) | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = (...args: unknown[]): unknown => {
    const out = (fs.readFileSync as (...a: unknown[]) => unknown)(...args);
    const hook = hooks.onLockRead;
    if (hook && /\.lock-r$/.test(String(args[0]))) {
      hooks.onLockRead = undefined;
      hook();
    }
    return out;
  };
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});


let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ndd-run-lock-test-'));
});
afterEach(() => {
  hooks.onLockRead = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function staleLock(): { path: string; pid: number } {
  const pid = deadPid();
  const path = lockPath(dir, 'r');
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
  return { path, pid };
}

describe('RunLock stale takeover', () => {
  it('gives the lock to one of two runs that both saw the same stale lock', () => {
    const { path, pid } = staleLock();
    const notices: string[] = [];
    let first: RunLock | undefined;
    // The second run reads the stale lock; right then the first takes it over completely.
    hooks.onLockRead = () => {
      first = RunLock.acquire(dir, 'r', 'shown/r', (l) => notices.push(l));
    };
    let second: unknown;
    try {
      RunLock.acquire(dir, 'r', 'shown/r', (l) => notices.push(l));
    } catch (e) {
      second = e;
    }
    expect(first).toBeInstanceOf(RunLock);
    expect(second).toBeInstanceOf(UserError);
    expect(String((second as Error).message)).toMatch(new RegExp(`^shown/r is being written by pid ${process.pid} on `));
    // The lock on disk is still the first run's (only one was ever created after the stale one).
    const held = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; nonce?: string };
    expect(held.pid).toBe(process.pid);
    expect(notices).toEqual([`note: removed the stale lock of shown/r (pid ${pid} started 2026-01-01T00:00:00.000Z is gone)`]);
    first?.release();
    // No claim is left behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over a stale lock alone, leaving only its own lock', () => {
    const { path, pid } = staleLock();
    const notices: string[] = [];
    const lock = RunLock.acquire(dir, 'r', 'shown/r', (l) => notices.push(l));
    expect(notices).toEqual([`note: removed the stale lock of shown/r (pid ${pid} started 2026-01-01T00:00:00.000Z is gone)`]);
    expect(readdirSync(dir)).toEqual(['.lock-r']);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('reports a takeover whose run died, naming the files to remove', () => {
    const { path } = staleLock();
    const claimer = deadPid();
    const claim = takeoverPath(path, readFileSync(path, 'utf8'));
    writeFileSync(claim, JSON.stringify({ pid: claimer, host: hostname() }));
    expect(() => RunLock.acquire(dir, 'r', 'shown/r', () => {})).toThrow(
      new UserError(`shown/r: pid ${claimer} died while taking over the stale lock ${path}; no run holds it: remove ${path} and ${claim}, then run again`),
    );
  });
});
