/**
 * `bench run --out DIR`: checked before anything is read or computed, so that a results root
 * that is a file, lies under a file, or cannot be written to fails at once in one line (exit 2)
 * instead of after the whole run with a stack trace. Nothing is left behind: DIR is not
 * created here, and the write test removes what it made.
 */
import { mkdtemp, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.ts';

const WHY: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
};

export async function checkOutRoot(out: string): Promise<void> {
  const target = resolve(out);
  // The nearest part of the path that exists: the results root itself, or the folder it will be made in.
  let existing = target;
  for (;;) {
    try {
      const s = await stat(existing);
      if (!s.isDirectory()) {
        throw new UserError(existing === target ? `--out ${out}: not a directory` : `--out ${out}: ${existing} is not a directory`);
      }
      break;
    } catch (e) {
      if (e instanceof UserError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a parent is a file, which the way up finds and names.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new UserError(`--out ${out}: cannot use ${existing}: ${WHY[code ?? ''] ?? code}`);
      const parent = dirname(existing);
      if (parent === existing) break;
      existing = parent;
    }
  }
  let probe: string | undefined;
  try {
    probe = await mkdtemp(join(existing, '.bench-write-check-'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOTDIR') throw new UserError(`--out ${out}: ${existing} is not a directory`);
    throw new UserError(`--out ${out}: cannot write in ${existing}: ${WHY[code] ?? code}`);
  } finally {
    if (probe !== undefined) await rmdir(probe).catch(() => {});
  }
}
