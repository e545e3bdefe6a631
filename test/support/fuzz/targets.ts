/**
 * What the reader fuzz tests mutate: a target is the set of files of one corpus (read from the
 * project's test/fixtures and ../shared/fixtures, never copied), which of them may be mutated,
 * and how each one's records can be put out of order.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export interface FuzzFile {
  /** path inside the case folder */
  readonly rel: string;
  /** the uncompressed bytes */
  readonly content: Buffer;
  /** written gzip'd, as the fixture is */
  readonly gzip: boolean;
  /** the content with its records in the order `shuffle` gives; absent: no records to reorder */
  readonly reorder?: (content: Buffer, shuffle: <T>(xs: readonly T[]) => T[]) => Buffer;
  /** reordering the records of a clean file gives the same documents (as a set) */
  readonly reorderKeepsDocs?: boolean;
  /** the fuzz tests may mutate this file (default true) */
  readonly mutable?: boolean;
}

export interface FuzzTarget {
  /** names the fixture in test titles and failures */
  readonly name: string;
  readonly format: string;
  readonly files: readonly FuzzFile[];
  /** the corpus path, relative to the case folder ('' = the case folder itself) */
  readonly path: string;
  readonly options?: Record<string, unknown>;
}

const repo = new URL('../../../', import.meta.url);
export const projectFixture = (rel: string): string => fileURLToPath(new URL(`test/fixtures/${rel}`, repo));
export const sharedFixture = (rel: string): string => fileURLToPath(new URL(`../shared/fixtures/${rel}`, repo));

function load(path: string): { content: Buffer; gzip: boolean } {
  const raw = readFileSync(path);
  const gzip = raw[0] === 0x1f && raw[1] === 0x8b;
  return { content: gzip ? gunzipSync(raw) : raw, gzip };
}

/** Splits `content` at `starts` (ascending offsets): head, then one record from each start to the next. */
function splitAt(content: Buffer, starts: readonly number[]): { head: Buffer; records: Buffer[] } {
  if (starts.length === 0) return { head: content, records: [] };
  const records = starts.map((s, i) => content.subarray(s, starts[i + 1] ?? content.length));
  return { head: content.subarray(0, starts[0]), records };
}

/** Every record ends with `end` (the last one of a file may not), so that records can be moved. */
function terminated(records: readonly Buffer[], end: string): Buffer[] {
  return records.map((r) => (r.subarray(r.length - end.length).toString('latin1') === end ? r : Buffer.concat([r, Buffer.from(end, 'latin1')])));
}

/** Records that start where `pattern` matches (a global regex over the latin1 text). */
export function reorderByMarker(pattern: RegExp, end = '\n'): NonNullable<FuzzFile['reorder']> {
  return (content, shuffle) => {
    const text = content.toString('latin1');
    const starts = [...text.matchAll(pattern)].map((m) => m.index);
    const { head, records } = splitAt(content, starts);
    return Buffer.concat([head, ...shuffle(terminated(records, end))]);
  };
}

export const reorderLines: NonNullable<FuzzFile['reorder']> = (content, shuffle) => {
  const starts: number[] = [];
  for (let i = 0; i < content.length; i = content.indexOf(0x0a, i) + 1 || content.length) starts.push(i);
  const { records } = splitAt(content, starts);
  return Buffer.concat(shuffle(terminated(records, '\n')));
};

/** Tar entries (with the extended headers that precede them), before the end-of-archive blocks. */
export const reorderTarEntries: NonNullable<FuzzFile['reorder']> = (content, shuffle) => {
  const entries: Buffer[] = [];
  let at = 0;
  let start = 0;
  while (at + 512 <= content.length) {
    const header = content.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(header.toString('latin1', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    if (!Number.isFinite(size)) return content;
    at += 512 + Math.ceil(size / 512) * 512;
    const type = String.fromCharCode(header[156] ?? 0);
    // GNU long names ('L') and pax headers ('x') belong to the entry after them.
    if (type !== 'L' && type !== 'x') {
      entries.push(content.subarray(start, at));
      start = at;
    }
  }
  return Buffer.concat([...shuffle(entries), content.subarray(start)]);
};

/** A JSON list of strings, its items reordered. */
export const reorderJsonList: NonNullable<FuzzFile['reorder']> = (content, shuffle) =>
  Buffer.from(JSON.stringify(shuffle(JSON.parse(content.toString('utf8')) as unknown[]), null, 2));

/** One fixture file as a single-file target. */
export function fileTarget(
  format: string,
  path: string,
  reorder: FuzzFile['reorder'],
  extra: Partial<Pick<FuzzFile, 'reorderKeepsDocs'>> = {},
): FuzzTarget {
  const { content, gzip } = load(path);
  const rel = basename(path);
  return { name: relative(fileURLToPath(repo), path), format, path: rel, files: [{ rel, content, gzip, reorder, ...extra }] };
}

/** A folder fixture: every file under it, each mutable, reordered with `reorderOf(rel)`. */
export function folderTarget(
  format: string,
  dir: string,
  reorderOf: (rel: string) => Pick<FuzzFile, 'reorder' | 'reorderKeepsDocs' | 'mutable'>,
  pick: (rel: string) => boolean = () => true,
): FuzzTarget {
  const files: FuzzFile[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const rel = relative(dir, full);
        if (!pick(rel)) continue;
        const { content, gzip } = load(full);
        files.push({ rel, content, gzip, ...reorderOf(rel) });
      }
    }
  };
  walk(dir);
  return { name: relative(fileURLToPath(repo), dir), format, path: '', files };
}

/** The first `n` entries of a tar archive (and its end blocks): a real archive, small enough to read often. */
export function tarPrefix(content: Buffer, n: number): Buffer {
  let at = 0;
  let kept = 0;
  while (kept < n && at + 512 <= content.length) {
    const header = content.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(header.toString('latin1', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    at += 512 + Math.ceil(size / 512) * 512;
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === '0' || type === '\0') kept++;
  }
  return Buffer.concat([content.subarray(0, at), Buffer.alloc(1024)]);
}

export { load as loadFixture };
