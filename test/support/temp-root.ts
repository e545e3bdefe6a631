/**
 * Vitest's global setup: the suite's temporary files go to a folder of their own (TMPDIR, which
 * `os.tmpdir()` reads, is inherited by the test processes and every program they start), and
 * whatever a test leaves there fails the run at the end. Without it, leftovers pile up in the
 * user's /tmp unseen (26 `emr-test-*` folders a run, once).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORK_ROOT = /^ndd-bench-[\w-]+$/;
const TSX_CACHE = /^tsx-\d+$/;

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'ndd-bench-tests-'));
  const previous = process.env['TMPDIR'];
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    // The runs' work root (`ndd-bench-<uid>`, experiment/work-dirs.ts) stays between runs by
    // design, what is inside it does not; tsx keeps its compile cache (`tsx-<uid>`) there too.
    const left = readdirSync(root).flatMap((name) => {
      if (TSX_CACHE.test(name)) return [];
      return WORK_ROOT.test(name) ? readdirSync(join(root, name)).map((n) => `${name}/${n}`) : [name];
    });
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      const shown = left.slice(0, 10).join(', ') + (left.length > 10 ? `, … (${left.length})` : '');
      process.stderr.write(`error: tests left ${left.length} entries in the temporary folder: ${shown}\n`);
      // A throw here is printed but does not change vitest's exit code.
      process.exitCode = 1;
    }
  };
}
