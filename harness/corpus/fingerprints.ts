/**
 * Files fingerprinted, so that what was computed from them is tied to them (a run to its inputs,
 * experiment/inputs.ts; a cached corpus to its files, cache.ts). A file is fingerprinted by its
 * path, size and modification time (a stat, cheap on a 426 GB collection) or, when asked, by a
 * SHA-256 of its content; a folder by all the files under it.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { walkInputFiles, type InputFile } from './files.ts';
import { readerLocation } from './registry.ts';
import type { CorpusReader } from './types.ts';

export interface FileSetFingerprint {
  /** the file or folder, absolute */
  readonly path: string;
  readonly files: number;
  readonly bytes: number;
  /** the newest modification time of its files, ISO 8601 (null when it has none) */
  readonly newest: string | null;
  /** SHA-256 over each file's relative path, size and mtime (or content hash) */
  readonly digest: string;
}

async function contentHash(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

export async function fingerprintPath(path: string, method: 'stat' | 'content'): Promise<FileSetFingerprint> {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return { path, files: 0, bytes: 0, newest: null, digest: 'missing' };
  }
  if (!st.isDirectory()) return fingerprintEntries(path, [{ path, rel: '' }], method);
  // The files as the readers list them (corpus/files.ts: symbolic links followed, dot files left
  // out, byte order of the relative paths); a folder without files: the reader says so.
  return fingerprintEntries(path, await walkInputFiles(path).catch(() => []), method);
}

/**
 * The files `paths` names under `root` (relative; a missing one fingerprinted as missing), in the
 * order given, as `fingerprintPath` fingerprints the files of a folder.
 */
export async function fingerprintFiles(root: string, paths: readonly string[], method: 'stat' | 'content'): Promise<FileSetFingerprint> {
  const base = root.endsWith(sep) ? root : `${root}${sep}`;
  return fingerprintEntries(
    root,
    paths.map((rel) => ({ path: `${base}${rel}`, rel })),
    method,
  );
}

/** A line a file, `<rel> NUL <size> NUL <mtimeMs>` (or its content's SHA-256), hashed in order; `missing` for a file gone. */
async function fingerprintEntries(path: string, entries: readonly InputFile[], method: 'stat' | 'content'): Promise<FileSetFingerprint> {
  const h = createHash('sha256');
  let bytes = 0;
  let newest = 0;
  let files = 0;
  // Hashed a few thousand lines at a time: an update a file cost more than the stat.
  let lines = '';
  for (const e of entries) {
    const st = statOrUndefined(e.path);
    if (st === undefined) {
      lines += `${e.rel}\u0000missing\n`;
      continue;
    }
    files++;
    bytes += st.size;
    newest = Math.max(newest, st.mtimeMs);
    const what = method === 'content' ? await contentHash(e.path) : `${st.size}\u0000${st.mtimeMs}`;
    lines += `${e.rel}\u0000${what}\n`;
    if (lines.length > 1 << 16) {
      h.update(lines);
      lines = '';
    }
  }
  h.update(lines);
  return { path, files, bytes, newest: files > 0 ? new Date(newest).toISOString() : null, digest: h.digest('hex') };
}

/** A file's stat; undefined when there is none to read (missing, or not readable: the reader reports it). */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * A corpus's fingerprint: of the files its reader reads, when the reader lists them
 * (`CorpusReader.inputFiles`), else of every file under its location. Both the run's inputs
 * and the corpus cache's key take it.
 */
export async function fingerprintCorpus(
  reader: CorpusReader | undefined,
  path: string,
  options: Record<string, unknown>,
  method: 'stat' | 'content',
): Promise<FileSetFingerprint> {
  const location = readerLocation(reader, path);
  const listed = await reader?.inputFiles?.(path, options);
  return listed ? fingerprintFiles(location, listed, method) : fingerprintPath(location, method);
}
