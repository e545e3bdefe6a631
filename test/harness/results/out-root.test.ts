/** `--out` is checked before a run reads anything, and the check leaves nothing behind. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../harness/errors.ts';
import { checkOutRoot } from '../../../harness/results/out-root.ts';
import { literal, unwritableFolder } from '../../support/unwritable.ts';

const dir = mkdtempSync(join(tmpdir(), 'ndd-out-root-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkOutRoot', () => {
  it('accepts a folder, or a path to be made in a folder, and leaves nothing there', async () => {
    mkdirSync(join(dir, 'results'));
    await checkOutRoot(join(dir, 'results'));
    await checkOutRoot(join(dir, 'new', 'deeper'));
    expect(readdirSync(dir)).toEqual(['results']);
    expect(readdirSync(join(dir, 'results'))).toEqual([]);
  });

  it('refuses a file, and a path under a file, naming it', async () => {
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    await expect(checkOutRoot(file)).rejects.toThrow(new UserError(`--out ${file}: not a directory`));
    await expect(checkOutRoot(join(file, 'sub', 'x'))).rejects.toThrow(new UserError(`--out ${join(file, 'sub', 'x')}: ${file} is not a directory`));
  });

  it('refuses a folder that cannot be written, and a path to be made in one', async () => {
    const ro = unwritableFolder(mkdtempSync(join(dir, 'ro-')));
    const because = '(operation not permitted|permission denied)';
    await expect(checkOutRoot(ro)).rejects.toThrow(new RegExp(`^--out ${literal(ro)}: cannot write in ${literal(ro)}: ${because}$`));
    const below = join(ro, 'ndd-bench-x', 'y');
    await expect(checkOutRoot(below)).rejects.toThrow(new RegExp(`^--out ${literal(below)}: cannot write in ${literal(ro)}: ${because}$`));
  });
});
