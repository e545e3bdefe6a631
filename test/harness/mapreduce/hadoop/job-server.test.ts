/**
 * The job server's protocol and ownership (job-server.ts), on a stand-in server written in Node
 * that speaks the Java server's protocol (a request line `<log>\t<args…>`, the reply `exit N`):
 * replies, a server that dies mid-job, an abort that kills its task processes, its folder removed,
 * and the JVM's CPU read from /proc, its reaped task processes included. The real server runs
 * Hadoop's jobs in backend.test.ts and every-detector.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobServer, processCpuS } from '../../../../harness/mapreduce/hadoop/job-server.ts';
import { processesMentioning, removeTempDirs, tempDir } from '../streaming/toy/fixture.ts';

afterAll(removeTempDirs);

/**
 * Jobs: `echo WORDS` (logs them, exit 0), `fail N` (exit N), `die` (the server exits 7),
 * `hang` (a task process that sleeps, which an abort must kill), `burn MS` (a task process
 * that spins until it has used MS ms of CPU and reports its own CPU seconds in the log).
 */
const STAND_IN = String.raw`
const { writeFileSync } = require('node:fs');
const { spawn, spawnSync } = require('node:child_process');
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [log, job, ...args] = line.split('\t');
  if (job === 'echo') { writeFileSync(log, args.join(' ')); console.log('exit 0'); }
  else if (job === 'fail') { writeFileSync(log, 'failed'); console.log('exit ' + args[0]); }
  else if (job === 'die') { console.error('server: dying'); process.exit(7); }
  else if (job === 'hang') { spawn('sleep', ['60'], { stdio: 'ignore' }); }
  else if (job === 'burn') {
    const r = spawnSync(process.execPath, ['-e', 'const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; }; while (cpu() < ' + args[0] + ') {} console.log(cpu() / 1e3)']);
    writeFileSync(log, r.stdout.toString());
    console.log('exit 0');
  }
});
`;

const standIn = () => ({ file: process.execPath, args: ['-e', STAND_IN, '--', 'stand-in'], env: { ...process.env } });

describe.runIf(process.platform === 'linux')('hadoop job server', () => {
  it('runs jobs one after another, each its own log and exit code, and removes its folder when closed', async () => {
    const parent = tempDir('ndd-jobserver-');
    const server = await JobServer.start(standIn, parent);
    const signal = new AbortController().signal;
    expect(await server.run(['echo', 'a b', 'c'], join(parent, 'one.log'), signal)).toEqual({ code: 0, signal: null });
    expect(await server.run(['fail', '3'], join(parent, 'two.log'), signal)).toEqual({ code: 3, signal: null });
    expect(readFileSync(join(parent, 'one.log'), 'utf8')).toBe('a b c');
    expect(readFileSync(join(parent, 'two.log'), 'utf8')).toBe('failed');
    expect(readdirSync(server.folder).sort()).toEqual(['conf', 'cwd', 'log4j.properties', 'server.log']);
    expect(readFileSync(join(server.folder, 'conf', 'core-site.xml'), 'utf8')).toContain('nddbench.NioLocalFileSystem');
    expect(readFileSync(join(server.folder, 'log4j.properties'), 'utf8')).toContain('follow=true');
    await server.close();
    expect(server.alive).toBe(false);
    expect(readdirSync(parent).sort()).toEqual(['one.log', 'two.log']);
  }, 30_000);

  it('refuses an argument its request line cannot carry', async () => {
    const parent = tempDir('ndd-jobserver-');
    const server = await JobServer.start(standIn, parent);
    await expect(server.run(['echo', 'a\tb'], join(parent, 'x.log'), new AbortController().signal)).rejects.toThrow(/holds a TAB or a line break/);
    await server.close();
  }, 30_000);

  it('says how the server died, with the end of its own log', async () => {
    const parent = tempDir('ndd-jobserver-');
    const server = await JobServer.start(standIn, parent);
    const exit = await server.run(['die'], join(parent, 'x.log'), new AbortController().signal);
    expect(exit).toMatchObject({ code: 7, signal: null, died: 'server: dying' });
    expect(server.alive).toBe(false);
    await server.kill();
    expect(readdirSync(parent)).toEqual([]);
  }, 30_000);

  it('says why a server that could not be started ran nothing', async () => {
    const parent = tempDir('ndd-jobserver-');
    const server = await JobServer.start(() => ({ file: join(parent, 'no-such-java'), args: [], env: {} }), parent);
    const exit = await server.run(['echo', 'a'], join(parent, 'x.log'), new AbortController().signal);
    expect(exit.spawnError).toMatch(/ENOENT/);
    await server.kill();
    expect(readdirSync(parent)).toEqual([]);
  }, 30_000);

  it('kills the server and its task processes at an abort, and removes its folder', async () => {
    const parent = tempDir('ndd-jobserver-');
    const server = await JobServer.start(standIn, parent);
    const controller = new AbortController();
    const run = server.run(['hang'], join(parent, 'x.log'), controller.signal);
    const sleeping = () => processesMentioning('sleep\u000060').length;
    for (let i = 0; i < 200 && sleeping() === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(sleeping()).toBeGreaterThan(0);
    controller.abort();
    expect((await run).signal).toBe('SIGKILL');
    await server.kill();
    expect(sleeping()).toBe(0);
    expect(processesMentioning('stand-in')).toEqual([]);
    expect(readdirSync(parent)).toEqual([]);
  }, 30_000);

  it("reads the server's CPU from /proc, with the task processes it has reaped", async () => {
    const parent = tempDir('ndd-jobserver-');
    const server = await JobServer.start(standIn, parent);
    const before = server.cpuS() as number;
    await server.run(['burn', '600'], join(parent, 'burn.log'), new AbortController().signal);
    const task = Number(readFileSync(join(parent, 'burn.log'), 'utf8'));
    expect(task).toBeGreaterThan(0.3);
    // the task's own count of its CPU is in the server's, give or take the clock ticks' rounding
    expect((server.cpuS() as number) - before).toBeGreaterThanOrEqual(task - 0.05);
    expect(processCpuS(2 ** 22 + 1)).toBeUndefined();
    await server.close();
  }, 30_000);
});
