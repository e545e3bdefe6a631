/**
 * The run files a study names: a file is one run; a folder is every file under it, in byte
 * order (how TREC distributes a track's runs: one `input.<tag>.gz` per run). A run is labelled
 * in the tables by its file name, or by its whole path where two runs share a file name.
 */
import { basename, resolve } from 'node:path';
import { DataError } from '../../errors.ts';
import { listInputFiles } from '../../corpus/files.ts';
import type { ReadContext } from '../../corpus/types.ts';
import { readRun, type Run } from '../../trec/run.ts';

export interface LabelledRun {
  readonly label: string;
  readonly file: string;
  readonly run: Run;
}

/** Reads each run file once, however many studies name it. */
export class RunFiles {
  private readonly cache = new Map<string, Promise<Run>>();

  constructor(private readonly ctx: ReadContext) {}

  async load(paths: readonly string[]): Promise<LabelledRun[]> {
    const files: string[] = [];
    for (const p of paths) files.push(...(await listInputFiles(resolve(p))));
    const unique = [...new Set(files)];
    const names = unique.map((f) => basename(f));
    const runs = await Promise.all(unique.map((f) => this.read(f)));
    return unique.map((file, i) => ({
      label: names.indexOf(names[i]!) === names.lastIndexOf(names[i]!) ? names[i]! : file,
      file,
      run: runs[i]!,
    }));
  }

  private read(file: string): Promise<Run> {
    let run = this.cache.get(file);
    if (!run) {
      run = readRun(file, this.ctx).then((r) => {
        // A file that yields nothing is not a run (a stray README in a runs folder, a wrong path).
        if (r.size === 0) throw new DataError(`${file}: no run lines (topic Q0 docno rank score tag) in this file`);
        return r;
      });
      this.cache.set(file, run);
    }
    return run;
  }
}
