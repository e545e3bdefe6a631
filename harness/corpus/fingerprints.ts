/**
 * What a run read, fingerprinted, so that a run is tied to its inputs: `already complete` holds
 * only when the config, the package version and every input file are what the complete run
 * read. A file is fingerprinted by its path, size and modification time (a stat, cheap on a
 * 426 GB collection) or, when asked, by a SHA-256 of its content; a folder by all the files under it.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { walkInputFiles, type InputFile } from './files.ts';
import { findCorpusReader, readerLocation, readerOptionsOf } from './registry.ts';
import type { CorpusReader } from './types.ts';
// Types only: the readers import this module, and must not load the detectors.
import type { DetectorCatalog } from '../detectors.ts';
import type { Experiment } from '../experiment/types.ts';
import { grouped } from '../format.ts';

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

export interface InputsFingerprint {
  readonly method: 'stat' | 'content';
  readonly package_version: string;
  readonly config_hash: string;
  readonly files: readonly FileSetFingerprint[];
  /** SHA-256 of all of the above: equal digests, same inputs */
  readonly digest: string;
}

const PACKAGE = new URL('../../package.json', import.meta.url);

export function packageVersion(): string {
  return (JSON.parse(readFileSync(PACKAGE, 'utf8')) as { version: string }).version;
}

/**
 * The files and folders an experiment reads: the corpus (as its reader resolves it), qrels, run
 * files, the span oracle, and the files the variants' parameters name (an adapter's `fileParams`,
 * such as simhash's document frequencies; absolute once the config is loaded).
 */
export function inputPaths(exp: Experiment, detectors?: DetectorCatalog): string[] {
  const paths: string[] = [];
  const reader = findCorpusReader(exp.corpus.format);
  const corpus = exp.corpus.path ?? '';
  const location = readerLocation(reader, corpus);
  if (location !== '') paths.push(location);
  const subset = exp.corpus.subset;
  if (subset) paths.push(...('qrels' in subset ? [subset.qrels] : subset.runs));
  for (const s of [exp.studies?.topic_collections, exp.studies?.run_topics]) if (s) paths.push(...s.runs);
  if (exp.evaluate.oracle !== undefined) paths.push(exp.evaluate.oracle);
  for (const v of detectors ? [exp.groundTruth, ...exp.variants] : []) {
    for (const at of detectors?.adapters.find((a) => a.name === v.algorithm)?.fileParams ?? []) {
      const value = at.reduce<unknown>((x, seg) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[seg] : undefined), v.params);
      if (typeof value === 'string' && value !== '') paths.push(value);
    }
  }
  return [...new Set(paths)];
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

export async function fingerprintInputs(exp: Experiment, method: 'stat' | 'content' = 'stat', detectors?: DetectorCatalog): Promise<InputsFingerprint> {
  const reader = findCorpusReader(exp.corpus.format);
  const corpus = exp.corpus.path ?? '';
  const location = readerLocation(reader, corpus);
  const files = await Promise.all(
    inputPaths(exp, detectors).map((p) => (p === location && location !== '' ? fingerprintCorpus(reader, corpus, readerOptionsOf(exp.corpus), method) : fingerprintPath(p, method))),
  );
  const base = { method, package_version: packageVersion(), config_hash: exp.hash, files };
  return { ...base, digest: createHash('sha256').update(JSON.stringify(base)).digest('hex') };
}

const mb = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MB`;
const describe = (f: FileSetFingerprint): string => `${grouped(f.files)} files, ${mb(f.bytes)}, newest ${f.newest ?? 'none'}`;

/** What differs between the inputs a run read and these, one clause each; empty when they are the same. */
export function inputChanges(before: InputsFingerprint, now: InputsFingerprint): string[] {
  if (before.digest === now.digest) return [];
  const out: string[] = [];
  if (before.package_version !== now.package_version) out.push(`ndd-bench ${before.package_version} → ${now.package_version}`);
  if (before.config_hash !== now.config_hash) out.push('the config changed');
  if (before.method !== now.method) out.push(`inputs fingerprinted by ${before.method}, now by ${now.method}`);
  for (const f of now.files) {
    const old = before.files.find((b) => b.path === f.path);
    if (!old) out.push(`${f.path} is new`);
    else if (old.digest !== f.digest) out.push(`${f.path} changed (${describe(old)} → ${describe(f)})`);
  }
  for (const b of before.files) if (!now.files.some((f) => f.path === b.path)) out.push(`${b.path} is no longer read`);
  return out.length > 0 ? out : ['the inputs differ'];
}
