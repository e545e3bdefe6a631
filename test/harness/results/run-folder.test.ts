/**
 * The lock of a run id is released last: after a failed run's partial folder is gone, and not at
 * the commit, so nothing of the run is still being written or removed when another run of the
 * same id may start. The order is observed through node:fs's rmSync.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunFolder } from '../../../harness/results/run-folder.ts';
import { lockPath } from '../../../harness/results/run-lock.ts';

const log = vi.hoisted(() => ({ removed: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const rmSync = (path: string, opts?: import('node:fs').RmOptions): void => {
    log.removed.push(String(path));
    fs.rmSync(path, opts);
  };
  return { ...fs, default: { ...fs, rmSync }, rmSync };
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'run-folder-'));
  log.removed = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('RunFolder', () => {
  it('removes a failed run’s partial folder before it releases the lock', () => {
    const folder = RunFolder.create(root, 'exp', 'r', () => {});
    folder.write('metrics.csv', 'half');
    const lock = lockPath(join(root, 'exp'), 'r');
    log.removed = [];
    folder.close();
    expect(log.removed).toEqual([folder.tempDir, lock]);
    expect(existsSync(join(root, 'exp'))).toBe(false);
  });

  it('holds the lock after the commit until it is closed', () => {
    const folder = RunFolder.create(root, 'exp', 'r', () => {});
    folder.write('metrics.csv', 'done');
    const lock = lockPath(join(root, 'exp'), 'r');
    folder.commit();
    expect(existsSync(lock)).toBe(true);
    folder.close();
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(join(root, 'exp'))).toEqual(['r']);
  });
});
