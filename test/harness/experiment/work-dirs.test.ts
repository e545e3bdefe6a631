import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../../harness/errors.ts';
import { createWorkDir, removeDeadWorkDirs, userWorkRoot } from '../../../harness/experiment/work-dirs.ts';
import { deadPid } from '../../support/dead-pid.ts';


const uid = process.getuid?.();
let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'work-dirs-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.runIf(uid !== undefined)('userWorkRoot', () => {
  it('is <tmp>/ndd-bench-<uid>, the user’s own, readable by the user only', () => {
    const root = userWorkRoot(base);
    expect(root).toBe(join(base, `ndd-bench-${uid}`));
    const st = statSync(root);
    expect(st.uid).toBe(uid);
    expect(st.mode & 0o777).toBe(0o700);
    expect(createWorkDir(root).startsWith(join(root, `run-${process.pid}-`))).toBe(true);
  });

  it('refuses a symbolic link planted in its place', () => {
    const elsewhere = join(base, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(base, `ndd-bench-${uid}`));
    expect(() => userWorkRoot(base)).toThrow(UserError);
    expect(() => userWorkRoot(base)).toThrow(/is a symbolic link; remove it or set TMPDIR$/);
  });

  it('refuses a folder of another user', () => {
    // The folder is this user's; the process then runs as another uid and must not take it.
    const other = (uid as number) + 1;
    const root = join(base, `ndd-bench-${other}`);
    mkdirSync(root);
    const getuid = vi.spyOn(process, 'getuid').mockReturnValue(other);
    try {
      expect(() => userWorkRoot(base)).toThrow(new UserError(`${root}: the temp folder for this user's runs is owned by uid ${uid}; remove it or set TMPDIR`));
    } finally {
      getuid.mockRestore();
    }
  });
});

describe('removeDeadWorkDirs', () => {
  it('removes dead runs’ folders in its own folder only, skipping what it cannot remove', () => {
    const root = join(base, 'mine');
    mkdirSync(root);
    const dead = deadPid();
    for (const name of [`run-${dead}-a`, `run-${process.pid}-b`, `run-${dead}-locked`]) mkdirSync(join(root, name));
    writeFileSync(join(root, `run-${dead}-file`), 'not a folder');
    // A dead run's folder beside the user's folder (another user's, in the shared temp folder).
    mkdirSync(join(base, `run-${dead}-theirs`));
    const notices: string[] = [];
    const remove = (p: string): void => {
      if (p.endsWith('-locked')) throw Object.assign(new Error(`EACCES: permission denied, rmdir '${p}'`), { code: 'EACCES' });
      rmSync(p, { recursive: true, force: true });
    };
    removeDeadWorkDirs(root, (l) => notices.push(l), remove);
    expect(readdirSync(root).sort()).toEqual([`run-${dead}-file`, `run-${dead}-locked`, `run-${process.pid}-b`].sort());
    expect(existsSync(join(base, `run-${dead}-theirs`))).toBe(true);
    expect(notices).toEqual([`note: removed ${join(root, `run-${dead}-a`)}, left by a run that was killed (pid ${dead})`]);
  });

  it('does nothing when its folder cannot be read', () => {
    const notices: string[] = [];
    removeDeadWorkDirs(join(base, 'absent'), (l) => notices.push(l));
    expect(notices).toEqual([]);
  });
});
