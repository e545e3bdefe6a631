/**
 * A folder in which this process cannot make folders, for the tests of unwritable `--out`
 * (a test helper, not a test file): for a user other than root, a mode 0555 folder under
 * `scratch`; for root, who may write in any such folder, /sys/kernel (sysfs refuses new folders
 * even to root). Neither available throws: the test fails rather than skips.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function unwritableFolder(scratch: string): string {
  if (process.getuid?.() !== 0) {
    const ro = join(scratch, 'read-only');
    mkdirSync(ro, { recursive: true });
    chmodSync(ro, 0o555);
    return ro;
  }
  if (existsSync('/sys/kernel')) return '/sys/kernel';
  throw new Error('no folder that root cannot write in (no /sys/kernel here): mount sysfs or run the tests as another user');
}

/** `s` as a literal in a regular expression. */
export const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
