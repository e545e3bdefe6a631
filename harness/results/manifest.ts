/**
 * The files of a run, each with its size and SHA-256, listed in run.json: a reader of the
 * results can tell a complete run from one with a file missing, truncated or replaced.
 * report.html is not listed: it is derived from the rest and `bench report` rewrites it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { forEachPiece } from '../../kernels/io/pieces.ts';
import { join, relative, sep } from 'node:path';

export interface FileEntry {
  /** relative to the run folder, `/`-separated */
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

const UNLISTED = new Set(['run.json', 'report.html']);

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A file's SHA-256, read a piece at a time (a run's files may exceed what one read takes). */
export function fileSha256(path: string): string {
  const h = createHash('sha256');
  forEachPiece(path, (piece) => h.update(piece));
  return h.digest('hex');
}

/** Every file under `dir` except run.json and report.html, sorted by path. */
export function listRunFiles(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  const visit = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) {
        const rel = relative(dir, p).split(sep).join('/');
        if (UNLISTED.has(rel)) continue;
        out.push({ path: rel, bytes: statSync(p).size, sha256: fileSha256(p) });
      }
    }
  };
  visit(dir);
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** Why the folder does not hold the files listed, or undefined when it does. */
export function verifyRunFiles(dir: string, files: readonly FileEntry[]): string | undefined {
  for (const f of files) {
    const p = join(dir, ...f.path.split('/'));
    let size: number;
    try {
      size = statSync(p).size;
    } catch {
      return `${f.path} is missing`;
    }
    if (size !== f.bytes) return `${f.path} has ${size} bytes, run.json lists ${f.bytes}`;
    if (fileSha256(p) !== f.sha256) return `${f.path} differs from the file run.json lists (SHA-256)`;
  }
  return undefined;
}
