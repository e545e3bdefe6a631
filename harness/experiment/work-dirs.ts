/**
 * A run's scratch folder (`run-<pid>-*`), in a folder of the user's own under the system's temp
 * folder, `<tmp>/ndd-bench-<uid>/` (mode 0700). The temp folder is shared by every user of the
 * machine: a run looks for the leftovers of killed runs only in its user's folder, and an entry
 * it cannot stat or remove is left alone.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { processAlive } from '../results/run-lock.ts';

const WORK_DIR = /^run-(\d+)-/;

/** The user's own id, or name where there are no uids (Windows). */
function userTag(): string {
  const uid = process.getuid?.();
  return uid === undefined ? userInfo().username.replace(/[^A-Za-z0-9_.-]/g, '_') : String(uid);
}

/**
 * `<base>/ndd-bench-<uid>`, created when missing. Refuses one that is a link, not a folder, or
 * another user's: someone else could then read or plant files in the run's scratch space.
 */
export function userWorkRoot(base: string = tmpdir()): string {
  const root = join(base, `ndd-bench-${userTag()}`);
  let st;
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    st = lstatSync(root);
  } catch (e) {
    throw new UserError(`${root}: cannot create the temp folder for this user's runs (${(e as NodeJS.ErrnoException).code ?? String(e)}); set TMPDIR to a folder you can write`);
  }
  const uid = process.getuid?.();
  if (st.isSymbolicLink() || !st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new UserError(`${root}: the temp folder for this user's runs is ${st.isSymbolicLink() ? 'a symbolic link' : !st.isDirectory() ? 'not a folder' : `owned by uid ${st.uid}`}; remove it or set TMPDIR`);
  }
  return root;
}

/** A new scratch folder of this process in `root`. */
export function createWorkDir(root: string): string {
  return mkdtempSync(join(root, `run-${process.pid}-`));
}

/**
 * Removes the scratch folders in `root` of runs that were killed outright (their pid is gone),
 * with a notice each; an entry that cannot be stat'ed or removed is skipped.
 */
export function removeDeadWorkDirs(root: string, notice: (line: string) => void, remove: (path: string) => void = (p) => rmSync(p, { recursive: true, force: true })): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const m = WORK_DIR.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    const path = join(root, name);
    try {
      if (!lstatSync(path).isDirectory()) continue;
      remove(path);
    } catch {
      continue; // not ours to remove after all, or gone meanwhile
    }
    notice(`note: removed ${path}, left by a run that was killed (pid ${m[1]})`);
  }
}
