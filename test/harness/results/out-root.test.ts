/** `--out` is checked before a run reads anything, and the check leaves nothing behind. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../harness/errors.ts';
import { checkOutRoot } from '../../../harness/results/out-root.ts';

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

  it.skipIf(!existsSync('/sys/kernel'))('refuses a folder that cannot be written', async () => {
    // /sys refuses to make folders even to root; elsewhere a mode 0555 folder does (for non-root).
    await expect(checkOutRoot('/sys/kernel')).rejects.toThrow(/^--out \/sys\/kernel: cannot write in \/sys\/kernel: (operation not permitted|permission denied)$/);
    await expect(checkOutRoot('/sys/ndd-bench-x/y')).rejects.toThrow(/^--out \/sys\/ndd-bench-x\/y: cannot write in \/sys: /);
  });
});
