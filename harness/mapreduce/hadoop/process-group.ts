/**
 * Runs one Hadoop command (a JVM) in a process group of its own, its stdout and stderr into a
 * log file. The task processes Hadoop starts (PipeMapRed's `node ndd-job.js`) stay in that group,
 * so killing the group stops the whole tree: on abort, and after the JVM exits (a task process
 * it left behind).
 */
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { HadoopCommand } from './runtime.ts';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** set when the command could not be started */
  readonly spawnError?: string;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
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
        killGroup(child.pid);
        resolve({ code, signal, ...(spawnError !== undefined ? { spawnError } : {}) });
      });
    });
  } finally {
    await log.close();
  }
}
