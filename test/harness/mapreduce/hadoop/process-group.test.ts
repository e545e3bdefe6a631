/**
 * A command's process group: what counts as still running (a live member, not a zombie nobody
 * reaps), and a run that ends, normally or by abort, only once no member of its group runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupRunning, runInGroup } from '../../../../harness/mapreduce/hadoop/process-group.ts';

const dir = mkdtempSync(join(tmpdir(), 'ndd-pgroup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const membersOf = (pgid: number): number[] => {
  const out = spawnSync('ps', ['-e', '-o', 'pid=,pgid=,stat=']).stdout.toString();
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => Number(f[1]) === pgid && !(f[2] ?? '').startsWith('Z'))
    .map((f) => Number(f[0]));
};

describe.runIf(process.platform === 'linux')('process group', () => {
  it('counts a group with a live member as running, and one that has ended as not', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid!;
    expect(groupRunning(pgid)).toBe(true);
    process.kill(-pgid, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(groupRunning(pgid)).toBe(false);
  });

  it('does not count a group whose only member is a zombie', async () => {
    // L makes group G, forks Z (which exits unreaped, a zombie of G), then moves itself back to
    // the test's group: G holds only the zombie while L lives. L prints G and waits.
    const script = [
      'import os, sys, time',
      'os.setpgid(0, 0)',
      'g = os.getpid()',
      'if os.fork() == 0: os._exit(0)',
      'time.sleep(0.2)',
      'os.setpgid(0, os.getpgid(os.getppid()))',
      'print(g, flush=True)',
      'time.sleep(30)',
    ].join('\n');
    const l = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pgid = Number(await new Promise<string>((r) => l.stdout.once('data', (b: Buffer) => r(b.toString()))));
    try {
      expect(() => process.kill(-pgid, 0)).not.toThrow(); // the zombie is still in the group
      expect(groupRunning(pgid)).toBe(false);
    } finally {
      l.kill('SIGKILL');
    }
  });

  it('ends an aborted command only when no process of its group runs', async () => {
    const controller = new AbortController();
    const run = runInGroup(
      // the shell leads its own group: $$ is the group's id
      { file: 'sh', args: ['-c', `echo $$ > ${join(dir, 'pgid')}; sleep 60 & sleep 60 & wait`], env: process.env },
      { cwd: dir, logFile: join(dir, 'log'), signal: controller.signal },
    );
    await new Promise((r) => setTimeout(r, 300));
    controller.abort(new Error('Ctrl-C'));
    const exit = await run;
    expect(exit.signal).toBe('SIGKILL');
    const pgid = Number(readFileSync(join(dir, 'pgid'), 'utf8'));
    expect(pgid).toBeGreaterThan(0);
    expect(membersOf(pgid)).toEqual([]);
  });
});
