/**
 * A run's results folder, written atomically and by one writer: the lock of the run id is taken
 * first (run-lock.ts), everything goes into `.partial-<run-id>-<pid>` beside the final folder,
 * which is renamed into place only when complete. The harness deletes only what it created: a
 * final path is replaced only when it holds a run of the same experiment and run id (its
 * run.json says so); leftovers of dead runs (their pid is in the name) are removed by the next
 * run into the same results folder, with a notice.
 */
import { piecesOf, writeFileInPieces, type FileBytes } from '../../kernels/io/pieces.ts';
import { mkdirSync, readdirSync, rmdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UserError } from '../errors.ts';
import { processAlive, RunLock } from './run-lock.ts';

/** What is at a run's final path. */
export type FinalPath =
  | { readonly kind: 'absent' }
  /** a run folder of this experiment and run id; `run` is its run.json */
  | { readonly kind: 'run'; readonly run: Record<string, unknown> }
  /** anything else: never replaced */
  | { readonly kind: 'foreign'; readonly why: string };

const LEFTOVER = /^\.(partial|work)-.+-(\d+)$/;

export class RunFolder {
  private committed = false;

  private constructor(
    readonly finalDir: string,
    readonly tempDir: string,
    private readonly experiment: string,
    private readonly runId: string,
    private readonly lock: RunLock,
  ) {}

  static finalPath(root: string, experiment: string, runId: string): string {
    return join(root, experiment, runId);
  }

  static inspect(finalDir: string, experiment: string, runId: string): FinalPath {
    let isDir: boolean;
    try {
      isDir = statSync(finalDir).isDirectory();
    } catch {
      return { kind: 'absent' };
    }
    if (!isDir) return { kind: 'foreign', why: 'it is a file' };
    let run: unknown;
    try {
      run = JSON.parse(readFileSync(join(finalDir, 'run.json'), 'utf8'));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { kind: 'foreign', why: code === 'ENOENT' ? 'it has no run.json' : 'its run.json cannot be read' };
    }
    const r = run as Record<string, unknown> | null;
    if (typeof r !== 'object' || r === null || r.experiment !== experiment || r.run_id !== runId) {
      return { kind: 'foreign', why: `its run.json is not of experiment ${experiment}, run ${runId}` };
    }
    return { kind: 'run', run: r };
  }

  /**
   * Takes the run id's lock, removes leftovers of dead runs in the experiment's results folder
   * and opens the temporary folder. Throws a UserError when another run holds the lock.
   */
  static create(root: string, experiment: string, runId: string, notice: (line: string) => void): RunFolder {
    const parent = join(root, experiment);
    mkdirSync(parent, { recursive: true });
    const finalDir = join(parent, runId);
    const lock = RunLock.acquire(parent, runId, finalDir, notice);
    try {
      removeDeadLeftovers(parent, notice);
      const temp = join(parent, `.partial-${runId}-${process.pid}`);
      rmSync(temp, { recursive: true, force: true });
      mkdirSync(temp, { recursive: true });
      return new RunFolder(finalDir, temp, experiment, runId, lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  write(relPath: string, data: string | FileBytes): void {
    const path = join(this.tempDir, relPath);
    mkdirSync(dirname(path), { recursive: true });
    // In pieces: one write call takes at most 2 GiB (kernels/io/pieces.ts).
    writeFileInPieces(path, typeof data === 'string' ? [Buffer.from(data, 'utf8')] : piecesOf(data));
  }

  /**
   * Renames the folder into place, replacing an earlier run of the same experiment and id (and
   * nothing else). A whole folder, which the atomic file write (kernels/io) does not cover: a
   * folder cannot be renamed over another, so the old one steps aside first.
   */
  commit(): string {
    const at = RunFolder.inspect(this.finalDir, this.experiment, this.runId);
    if (at.kind === 'foreign') {
      throw new UserError(`${this.finalDir} exists and is not a run folder (${at.why}): refusing to replace it`);
    }
    if (at.kind === 'run') {
      const old = `${dirname(this.finalDir)}/.partial-${this.runId}-replaced-${process.pid}`;
      renameSync(this.finalDir, old);
      renameSync(this.tempDir, this.finalDir);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(this.tempDir, this.finalDir);
    }
    this.committed = true;
    return this.finalDir;
  }

  /**
   * The run's last step, whether it completed or not: removes the temporary folder of a run that
   * did not complete, then releases the lock (last: until then no other run of the id may start
   * and meet this one's partial outputs), then removes the experiment's results folder when that
   * leaves it empty (a failed first run leaves nothing).
   */
  close(): void {
    try {
      if (!this.committed) rmSync(this.tempDir, { recursive: true, force: true });
    } finally {
      this.lock.release();
    }
    if (this.committed) return;
    try {
      rmdirSync(dirname(this.finalDir));
    } catch {
      // not empty: other runs, a checkpoint to resume from
    }
  }
}

/** `.partial-*-<pid>` and `.work-*-<pid>` folders of processes that no longer exist. */
function removeDeadLeftovers(parent: string, notice: (line: string) => void): void {
  for (const name of readdirSync(parent)) {
    const m = LEFTOVER.exec(name);
    if (!m || processAlive(Number(m[2]))) continue;
    rmSync(join(parent, name), { recursive: true, force: true });
    notice(`note: removed ${join(parent, name)}, left by a run that was killed (pid ${m[2]})`);
  }
}
