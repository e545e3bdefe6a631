/**
 * The folder of a cache of whole-file entries (the corpus cache, the stored values): listing
 * its entries least recently used first, trimming it to a size, clearing it, and removing the
 * temporary files of writers that are gone. Below the corpus so that the stored values, which
 * the runtime owns, share it without depending on corpus reading.
 */
import { readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Whether a process of this host with this pid exists (EPERM: it does, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<key>.<pid>.<n>.tmp` files of processes that are gone. */
export function removeDeadTemporaries(dir: string): void {
  for (const name of readdirSync(dir)) {
    const m = /^[0-9a-f]{64}\.(\d+)\.\d+\.tmp$/.exec(name);
    if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]))) rmSync(join(dir, name), { force: true });
  }
}

/**
 * The entries of a folder (the files `isEntry` names) as `describe` reads them, least recently
 * used first. An entry being removed, or not whole (`describe` throws), is not listed: a read
 * finds out and removes it.
 */
export function listFolder<T extends { readonly used: Date }>(dir: string, isEntry: (name: string) => boolean, describe: (file: string, st: Stats) => T): T[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const name of names.filter(isEntry)) {
    const file = join(dir, name);
    try {
      out.push(describe(file, statSync(file)));
    } catch {
      // not listed (above)
    }
  }
  return out.sort((a, b) => a.used.getTime() - b.used.getTime());
}

/**
 * Removes `entries` (least recently used first) until the rest hold at most `maxBytes`, never
 * `keep`. Shared by the corpus cache and the stored values (stored-values.ts).
 */
export function trimToSize(entries: readonly { readonly file: string; readonly bytes: number }[], maxBytes: number, keep: string): void {
  let total = entries.reduce((s, e) => s + e.bytes, 0);
  for (const e of entries) {
    if (total <= maxBytes) break;
    if (e.file === keep) continue;
    rmSync(e.file, { force: true });
    total -= e.bytes;
  }
}

/**
 * Removes every file of `dir` that `isEntry` names, and every temporary file of a write
 * (`<key>.<pid>.<n>.tmp`); returns how many entries and bytes went. Shared with the stored values.
 */
export function clearFolder(dir: string, isEntry: (name: string) => boolean): { entries: number; bytes: number } {
  let entries = 0;
  let bytes = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { entries, bytes };
  }
  for (const name of names) {
    const entry = isEntry(name);
    if (!entry && !/^[0-9a-f]{64}\.\d+\.\d+\.tmp$/.test(name)) continue;
    const file = join(dir, name);
    try {
      bytes += statSync(file).size;
      rmSync(file, { force: true });
      if (entry) entries++;
    } catch {
      // removed meanwhile
    }
  }
  return { entries, bytes };
}

