/**
 * The external command under hostile behaviour: a failing exit, a command that never ends, an
 * interrupt while a tree of processes runs, a missing program; and the tree's cost as measured.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputFileError } from '../../../contract/index.ts';
import { lastLine, runCommand, type RunCommandOptions } from '../../../algorithms/external/run-command.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'external-cmd-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

const options = (over: Partial<RunCommandOptions> = {}): RunCommandOptions => ({ cwd: dir, timeoutS: 30, signal: new AbortController().signal, label: 'test.sh', graceMs: 200, ...over });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('an external command', () => {
  it('fails in one line with its exit code and the last line of its stderr', async () => {
    const s = script('fail.sh', 'echo "starting" >&2\necho "Traceback: ValueError: bad \\033[2J parameter" >&2\nexit 3\n');
    const err = await runCommand({ file: 'sh', args: [s], env: {} }, options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputFileError);
    expect((err as Error).message).toBe('test.sh: the command sh exited with code 3: Traceback: ValueError: bad \x1b[2J parameter');
  });

  it('says so when a failing command wrote nothing', async () => {
    const s = script('silent.sh', 'exit 1\n');
    await expect(runCommand({ file: 'sh', args: [s], env: {} }, options())).rejects.toThrow('test.sh: the command sh exited with code 1 (it wrote nothing to stderr)');
  });

  it('names a program that cannot start', async () => {
    await expect(runCommand({ file: join(dir, 'no-such-program'), args: [], env: {} }, options())).rejects.toThrow(/^test\.sh: cannot start the command ".*no-such-program": ENOENT$/);
  });

  it('stops a command that never ends at its timeout, and its children with it', async () => {
    const pids = join(dir, 'hang.pids');
    const s = script('hang.sh', `sleep 300 &\necho $! > ${pids}\ntrap '' TERM\nwhile true; do sleep 1; done\n`);
    const t0 = Date.now();
    const err = await runCommand({ file: 'sh', args: [s], env: {} }, options({ timeoutS: 0.5 })).catch((e: unknown) => e);
    expect((err as Error).message).toBe('test.sh: the command sh did not finish within timeout_s 0.5: its process tree was stopped (it wrote nothing to stderr)');
    expect(Date.now() - t0).toBeLessThan(10_000);
    const child = Number(readFileSync(pids, 'utf8'));
    await waitFor(() => !alive(child));
  });

  it('stops the whole tree on an interrupt and rejects with the interrupt', async () => {
    const pids = join(dir, 'tree.pids');
    const s = script('tree.sh', `sh -c 'sleep 300' &\necho $! > ${pids}\nwait\n`);
    const ac = new AbortController();
    const running = runCommand({ file: 'sh', args: [s], env: {} }, options({ signal: ac.signal }));
    await waitFor(() => existsSync(pids) && readFileSync(pids, 'utf8').trim() !== '');
    const grandchild = Number(readFileSync(pids, 'utf8'));
    expect(alive(grandchild)).toBe(true);
    ac.abort(new Error('interrupted by the test'));
    await expect(running).rejects.toThrow('interrupted by the test');
    await waitFor(() => !alive(grandchild));
  });

  it.runIf(process.platform === 'linux')('measures the tree: its CPU and the peak memory of a child holding 200 MB', async () => {
    // A child (not the command itself) fills 200 MB and spins until it has used 0.4 s of CPU
    // (CPU, not wall time: on a loaded machine the wall time says nothing of the CPU).
    const s = script('mem.sh', `node -e "const b = Buffer.alloc(200 * 2 ** 20, 1); let x = 0; while (process.cpuUsage().user < 400000) x += b[x % b.length]; console.log(x > 0)"\n`);
    const u = await runCommand({ file: 'sh', args: [s], env: {} }, options({ sampleMs: 20 }));
    expect(u.peakRssMb).toBeGreaterThan(200);
    expect(u.peakRssMb).toBeLessThan(400);
    expect(u.cpuS).toBeGreaterThan(0.4);
    expect(u.wallS).toBeGreaterThan(0.3);
  });
});

describe('lastLine', () => {
  it('is the last non-empty line, its last 80 characters', () => {
    expect(lastLine('a\nb\n\n')).toBe('b');
    expect(lastLine('x'.repeat(100) + 'END')).toBe(`…${'x'.repeat(77)}END`);
    expect(lastLine('')).toBe('');
  });
});
