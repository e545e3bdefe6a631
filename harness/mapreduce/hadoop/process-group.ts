/**
 * Runs one Hadoop command (a JVM) in a process group of its own, its stdout and stderr into a
 * log file. The task processes Hadoop starts (PipeMapRed's `node ndd-job.js`) stay in that group,
 * so killing the group stops the whole tree: on abort, and after the JVM exits (a task process
 * it left behind). The command ends only once the group has: SIGKILL is delivered at once, but a
 * JVM with many threads and a large heap takes a while to tear down, and a caller that removes
 * its folders or reports "nothing left running" must not race it.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HadoopCommand } from './runtime.ts';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** set when the command could not be started */
  readonly spawnError?: string;
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/**
 * Whether a process of group `pgid` is still running. Zombies do not count: their parent (the
 * killed JVM) is gone, and who reaps them (init, or a container's first process) is not ours to
 * wait for; they hold no memory, files or folders.
 */
export function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // no /proc: the group answered the signal, so it is there
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    // after the command name in parentheses (which may hold spaces): state, ppid, pgrp
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

const GROUP_END_WAIT_MS = 30_000;

/** Kills the group and waits until no process of it runs (at most GROUP_END_WAIT_MS). */
export async function endGroup(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  killGroup(pid);
  for (const t0 = Date.now(); groupRunning(pid) && Date.now() - t0 < GROUP_END_WAIT_MS; ) await sleep(20);
}

export async function runInGroup(cmd: HadoopCommand, opts: { readonly cwd: string; readonly logFile: string; readonly signal: AbortSignal }): Promise<Exit> {
  opts.signal.throwIfAborted();
  const log = await open(opts.logFile, 'w');
  try {
    return await new Promise<Exit>((resolve) => {
      const child = spawn(cmd.file, cmd.args, { cwd: opts.cwd, env: cmd.env, stdio: ['ignore', log.fd, log.fd], detached: true });
      const onAbort = () => killGroup(child.pid);
      opts.signal.addEventListener('abort', onAbort, { once: true });
      let spawnError: string | undefined;
      child.on('error', (e) => {
        spawnError = e.message;
        if (child.pid === undefined) {
          opts.signal.removeEventListener('abort', onAbort);
          resolve({ code: null, signal: null, spawnError });
        }
      });
      child.on('close', (code, signal) => {
        opts.signal.removeEventListener('abort', onAbort);
        void endGroup(child.pid).then(() => resolve({ code, signal, ...(spawnError !== undefined ? { spawnError } : {}) }));
      });
    });
  } finally {
    await log.close();
  }
}
