import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.ts';

/**
 * Every run folder (a folder holding run.json) under `root`, at any depth, in sorted order.
 * Hidden folders are skipped: they are runs still being written (temporary names) or tooling.
 * A run folder is not searched further (its pairs/ hold no runs).
 */
export async function findRunDirs(root: string): Promise<string[]> {
  let top: Dirent[];
  try {
    top = await readdir(root, { withFileTypes: true });
  } catch (e) {
    throw new UserError(`${root}: cannot read results folder: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const found: string[] = [];
  const walk = async (dir: string, entries: Dirent[]): Promise<void> => {
    if (entries.some((e) => e.isFile() && e.name === 'run.json')) {
      found.push(dir);
      return;
    }
    const subdirs = entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
      .map((e) => e.name)
      .sort();
    for (const name of subdirs) {
      const sub = join(dir, name);
      await walk(sub, await readdir(sub, { withFileTypes: true }));
    }
  };
  await walk(root, top);
  return found;
}
