/**
 * A run's results folder, written atomically: everything goes into a hidden temporary folder
 * beside the final one and is renamed into place only when complete. A killed run leaves no
 * half-written results (at most a `.partial-*` folder, removed on the next run).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export class RunFolder {
  private committed = false;

  private constructor(
    readonly finalDir: string,
    readonly tempDir: string,
  ) {}

  static finalPath(root: string, experiment: string, runId: string): string {
    return join(root, experiment, runId);
  }

  static isComplete(dir: string): boolean {
    return existsSync(join(dir, 'run.json'));
  }

  static create(root: string, experiment: string, runId: string): RunFolder {
    const parent = join(root, experiment);
    mkdirSync(parent, { recursive: true });
    // Leftovers of killed runs of this id.
    for (const name of readdirSync(parent)) {
      if (name.startsWith(`.partial-${runId}-`)) rmSync(join(parent, name), { recursive: true, force: true });
    }
    const temp = join(parent, `.partial-${runId}-${process.pid}`);
    mkdirSync(temp, { recursive: true });
    return new RunFolder(join(parent, runId), temp);
  }

  write(relPath: string, data: string | Buffer): void {
    const path = join(this.tempDir, relPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  }

  /** Renames the folder into place, replacing an earlier run of the same id. */
  commit(): string {
    if (existsSync(this.finalDir)) {
      const old = `${this.finalDir}.replaced-${process.pid}`;
      renameSync(this.finalDir, old);
      renameSync(this.tempDir, this.finalDir);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(this.tempDir, this.finalDir);
    }
    this.committed = true;
    return this.finalDir;
  }

  discard(): void {
    if (!this.committed) rmSync(this.tempDir, { recursive: true, force: true });
  }
}
