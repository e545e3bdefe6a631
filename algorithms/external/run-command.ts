/**
 * Runs an external detector's command as a process tree of its own (its own process group), so
 * that a timeout or an interrupt stops every process it started, and measures the tree
 * (process-tree.ts). A failure is one line: the command, how it ended, and the last line of
 * what it wrote to stderr.
 */
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { InputFileError, type ProcessTreeUsage } from '../../contract/index.ts';
import type { CommandLine } from './argv.ts';
import { PEAK_RSS_METHOD, reapedChildrenCpuS, TreeMemorySampler } from './process-tree.ts';

export interface RunCommandOptions {
  readonly cwd: string;
  readonly timeoutS: number;
  readonly signal: AbortSignal;
  /** names the command in messages: the variant */
  readonly label: string;
  /** milliseconds between memory samples */
  readonly sampleMs?: number;
  /** milliseconds between SIGTERM and SIGKILL when the tree is stopped */
  readonly graceMs?: number;
}

/** How much of each output stream is kept for a message. */
const TAIL_CHARS = 4096;
/** How much of the command's own words a message shows (docs/design.md §12). */
const SHOWN = 80;

/** The last non-empty line of `text`, at most SHOWN characters of its end. */
export function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const last = (lines[lines.length - 1] ?? '').trim();
  return last.length > SHOWN ? `…${last.slice(-SHOWN)}` : last;
}

class Tail {
  private text = '';
  add(chunk: Buffer): void {
    this.text = (this.text + chunk.toString('utf8')).slice(-TAIL_CHARS);
  }
  toString(): string {
    return this.text;
  }
}

export async function runCommand(cmd: CommandLine, o: RunCommandOptions): Promise<ProcessTreeUsage> {
  o.signal.throwIfAborted();
  const shown = basename(cmd.file).slice(0, SHOWN);
  const cpu0 = reapedChildrenCpuS();
  const t0 = performance.now();
  const child = spawn(cmd.file, [...cmd.args], {
    cwd: o.cwd,
    env: { ...process.env, ...cmd.env },
    // Its own process group: the whole tree can be signalled at once, and a Ctrl-C at the
    // terminal reaches the harness alone, which then stops the tree (harness/interrupts.ts).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = new Tail();
  const stdout = new Tail();
  child.stderr.on('data', (c: Buffer) => stderr.add(c));
  child.stdout.on('data', (c: Buffer) => stdout.add(c));
  const sampler = child.pid === undefined ? undefined : new TreeMemorySampler(child.pid, o.sampleMs ?? 50);
  let stoppedFor: 'timeout' | 'interrupt' | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const signalTree = (sig: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group has ended
    }
  };
  const stop = (why: 'timeout' | 'interrupt'): void => {
    stoppedFor ??= why;
    signalTree('SIGTERM');
    killTimer ??= setTimeout(() => signalTree('SIGKILL'), o.graceMs ?? 2000);
  };
  const onAbort = (): void => stop('interrupt');
  // Should the harness exit while the command runs, the tree goes with it.
  const onExit = (): void => signalTree('SIGKILL');
  o.signal.addEventListener('abort', onAbort, { once: true });
  process.on('exit', onExit);
  const timer = setTimeout(() => stop('timeout'), o.timeoutS * 1000);
  try {
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; wallS: number }>((resolve, reject) => {
      child.once('error', (e: NodeJS.ErrnoException) => {
        reject(new InputFileError(`${o.label}: cannot start the command ${JSON.stringify(cmd.file.slice(-SHOWN))}: ${e.code ?? e.message}`));
      });
      child.once('exit', (code, signal) => {
        const wallS = (performance.now() - t0) / 1000;
        sampler?.stop();
        // What the command left running goes with it: a detector's run ends with its command.
        signalTree('SIGKILL');
        resolve({ code, signal, wallS });
      });
    });
    await streamsClosed(child, o.graceMs ?? 2000);
    if (stoppedFor === 'interrupt') throw o.signal.reason ?? new Error('interrupted');
    if (stoppedFor === 'timeout') {
      throw new InputFileError(`${o.label}: the command ${shown} did not finish within timeout_s ${o.timeoutS}: its process tree was stopped${said(stderr, stdout)}`);
    }
    if (ended.code !== 0) {
      const how = ended.code === null ? `was killed by ${ended.signal ?? 'a signal'}` : `exited with code ${ended.code}`;
      throw new InputFileError(`${o.label}: the command ${shown} ${how}${said(stderr, stdout)}`);
    }
    const cpu1 = reapedChildrenCpuS();
    return {
      wallS: ended.wallS,
      cpuS: cpu0 === undefined || cpu1 === undefined ? 0 : cpu1 - cpu0,
      peakRssMb: sampler?.peakMb ?? 0,
      peakRssMethod: cpu0 === undefined ? 'not measured: /proc is not readable' : PEAK_RSS_METHOD,
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(killTimer);
    sampler?.stop();
    o.signal.removeEventListener('abort', onAbort);
    process.off('exit', onExit);
  }
}

/**
 * Waits for the command's output streams to close, at most `ms` after it exited: a process that
 * left its group (setsid) may hold them open for ever, and the detector's run has ended anyway.
 */
async function streamsClosed(child: ReturnType<typeof spawn>, ms: number): Promise<void> {
  if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => child.once('close', () => resolve())),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
  child.stdout?.destroy();
  child.stderr?.destroy();
}

/** `: <the last line of stderr>` (or of stdout when stderr is empty), or nothing. */
function said(stderr: Tail, stdout: Tail): string {
  const line = lastLine(stderr.toString()) || lastLine(stdout.toString());
  return line === '' ? ' (it wrote nothing to stderr)' : `: ${line}`;
}
