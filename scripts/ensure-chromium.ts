/**
 * Finds Debian's chromium, installing it with apt-get when it is missing, and prints its path.
 * The browser tests call `ensureChromium()` themselves, so `npx vitest run` works on a fresh
 * CI machine (root, network to Debian's mirrors) with no separate setup step.
 *
 *   node --import tsx scripts/ensure-chromium.ts     → prints the path, or exits 1 saying why not
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { pathToFileURL } from 'node:url';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export type ChromiumLookup = { readonly found: true; readonly path: string } | { readonly found: false; readonly reason: string };

function firstExecutable(): string | undefined {
  const fromEnv = process.env['CHROMIUM_PATH'];
  for (const path of fromEnv ? [fromEnv, ...CANDIDATES] : CANDIDATES) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not this one
    }
  }
  return undefined;
}

function aptGet(args: readonly string[]): { ok: boolean; output: string } {
  const r = spawnSync('apt-get', args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 15 * 60_000,
  });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

/** Returns chromium's path, installing the Debian package first when needed and possible. */
export function ensureChromium(log: (line: string) => void = () => {}): ChromiumLookup {
  const existing = firstExecutable();
  if (existing) return { found: true, path: existing };
  if (process.platform !== 'linux') return { found: false, reason: `no chromium in ${CANDIDATES.join(', ')} and apt-get is Linux-only` };
  if (process.getuid?.() !== 0) return { found: false, reason: 'chromium is not installed and installing it with apt-get needs root' };

  log('chromium not found: apt-get install -y chromium');
  let install = aptGet(['install', '-y', '--no-install-recommends', 'chromium']);
  // A fresh container has no package lists; refresh them only when the first attempt fails.
  if (!install.ok) {
    log('apt-get install failed; running apt-get update first');
    const update = aptGet(['update']);
    if (!update.ok) return { found: false, reason: `apt-get update failed: ${lastLine(update.output)}` };
    install = aptGet(['install', '-y', '--no-install-recommends', 'chromium']);
  }
  if (!install.ok) return { found: false, reason: `apt-get install chromium failed: ${lastLine(install.output)}` };
  const installed = firstExecutable();
  return installed ? { found: true, path: installed } : { found: false, reason: 'apt-get installed chromium but no executable was found' };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = ensureChromium((line) => console.error(line));
  if (r.found) {
    console.log(r.path);
  } else {
    console.error(`ensure-chromium: ${r.reason}`);
    process.exitCode = 1;
  }
}
