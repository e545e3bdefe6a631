/**
 * A digest of the code in a folder (its TypeScript sources) and of the runtime that runs it, for
 * the keys of values kept across runs: a value that other code computed, or another runtime
 * (case mapping comes from ICU, number formatting from V8), is under another key, so a cache
 * never hands back what the code of this run would not compute.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

const digests = new Map<string, string>();

/**
 * SHA-256 (hex) of every `.ts` file of `folder` (names and contents, in name order), then each of
 * `extra` (say, the versions of packages the code calls), then Node's, V8's and ICU's versions.
 * Computed once per folder and extras in a process.
 */
export function codeDigest(folder: URL, extra: readonly string[] = []): string {
  const id = `${folder.href}\0${extra.join('\0')}`;
  const known = digests.get(id);
  if (known) return known;
  const h = createHash('sha256');
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.ts')).sort()) {
    h.update(`${name}\0`).update(readFileSync(new URL(name, folder))).update('\0');
  }
  for (const e of extra) h.update(`${e}\0`);
  h.update(`node ${process.versions.node} v8 ${process.versions.v8} icu ${process.versions.icu ?? ''}`);
  const digest = h.digest('hex');
  digests.set(id, digest);
  return digest;
}
