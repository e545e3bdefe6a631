/**
 * Makes the project's Python virtual environment for a requirement set, and prints its python.
 * A set is `python/requirements-<set>.txt` (pinned, with hashes: `python/lock.py` writes it);
 * its environment is `.venv/<set>-<first 12 hex of the file's SHA-256>/`, so a changed file gets
 * a new one and an unchanged one is installed once, and `.venv/<set>` links to the current one
 * (what configs name: `.venv/peers/bin/python`). The tests that need a set call
 * `ensurePythonSet()` themselves, as the browser tests call `ensureChromium()`.
 *
 *   npm run peers:install                                  → the `peers` and `textdedup` sets
 *   node --import tsx scripts/ensure-python.ts [SET…]      → prints each set's python, or exits 1 saying why not
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VENVS = join(ROOT, '.venv');
/** written last into a complete environment */
const MARKER = '.installed';
const MIN_PYTHON: readonly [number, number] = [3, 11];

export type PythonLookup = { readonly found: true; readonly python: string; readonly venv: string } | { readonly found: false; readonly reason: string };

function run(cmd: string, args: readonly string[], timeoutMs: number): { ok: boolean; output: string } {
  const r = spawnSync(cmd, [...args], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

/** The environment's folder for a set: keyed by its requirements file's content. */
export function venvOf(set: string): { readonly requirements: string; readonly venv: string } | undefined {
  const requirements = join(ROOT, 'python', `requirements-${set}.txt`);
  if (!existsSync(requirements)) return undefined;
  const hash = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12);
  return { requirements, venv: join(VENVS, `${set}-${hash}`) };
}

/** Points `.venv/<set>` at `venv`, replacing the link at once. */
function link(set: string, venv: string): void {
  const tmp = join(VENVS, `.${set}.link-${process.pid}`);
  rmSync(tmp, { force: true });
  symlinkSync(venv.slice(VENVS.length + 1), tmp);
  renameSync(tmp, join(VENVS, set));
}

/** Returns the set's python, installing its environment first when needed and possible. */
export function ensurePythonSet(set = 'peers', log: (line: string) => void = () => {}): PythonLookup {
  const where = venvOf(set);
  if (!where) return { found: false, reason: `no python/requirements-${set}.txt` };
  const { requirements, venv } = where;
  const python = join(venv, 'bin', 'python');
  if (existsSync(join(venv, MARKER))) {
    if (!existsSync(join(VENVS, set))) link(set, venv);
    return { found: true, python, venv };
  }
  const base = process.env['NDD_PYTHON'] ?? 'python3';
  const version = run(base, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], 30_000);
  if (!version.ok) return { found: false, reason: `${base} does not run (set NDD_PYTHON to a Python ${MIN_PYTHON.join('.')}+): ${lastLine(version.output)}` };
  const [major, minor] = version.output.trim().split('.').map(Number) as [number, number];
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    return { found: false, reason: `${base} is Python ${version.output.trim()}; the pinned packages need ${MIN_PYTHON.join('.')}+ (set NDD_PYTHON)` };
  }
  mkdirSync(VENVS, { recursive: true });
  // Built aside and renamed into place: an interrupted install leaves no environment that looks complete.
  const partial = `${venv}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    log(`making ${venv.slice(ROOT.length)} from python/requirements-${set}.txt`);
    const made = run(base, ['-m', 'venv', partial], 120_000);
    if (!made.ok) return { found: false, reason: `${base} -m venv failed: ${lastLine(made.output)}` };
    const pip = ['-m', 'pip', 'install', '--quiet', '--require-hashes', '--no-deps', '--only-binary=:all:', '-r', requirements];
    const installed = run(join(partial, 'bin', 'python'), pip, 15 * 60_000);
    if (!installed.ok) return { found: false, reason: `pip install -r python/requirements-${set}.txt failed: ${lastLine(installed.output)}` };
    writeFileSync(join(partial, MARKER), `${new Date().toISOString()}\n`);
    try {
      renameSync(partial, venv);
    } catch (e) {
      // Another process (a second test worker) finished the same environment first.
      if (!existsSync(join(venv, MARKER))) throw e;
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  link(set, venv);
  removeOlder(set, venv);
  return { found: true, python, venv };
}

/** Environments of earlier versions of the set's requirements. */
function removeOlder(set: string, current: string): void {
  const mine = new RegExp(`^${set}-[0-9a-f]{12}$`);
  for (const name of readdirSync(VENVS)) {
    const path = join(VENVS, name);
    if (mine.test(name) && path !== current) rmSync(path, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sets = process.argv.length > 2 ? process.argv.slice(2) : ['peers'];
  for (const set of sets) {
    const r = ensurePythonSet(set, (line) => console.error(line));
    if (r.found) {
      console.log(r.python);
    } else {
      console.error(`ensure-python: ${set}: ${r.reason}`);
      process.exitCode = 1;
    }
  }
}
