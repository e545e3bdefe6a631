/**
 * Real process pipelines (`a | b | c`) wired child to child through OS pipes (the data never
 * passes through this process), with each process's stderr read for Hadoop Streaming's
 * `reporter:` lines and its last words. Every child is registered with a `ChildSet` that can
 * kill them all (abort, a failed sibling task).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { parseReporterLine, type CounterLine } from './reporter.ts';

export interface Command {
  /** `mapper`, `sort`, `combiner`, `reducer`: names the process in errors. */
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export interface ProcessOutcome {
  readonly label: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  readonly spawnError?: string;
  /**
   * Set on the first process when its input stream failed (a split that cannot be read): the
   * process saw its input end early and may well exit 0, on part of its input.
   */
  readonly inputError?: string;
  readonly counters: readonly CounterLine[];
  /** The last stderr lines that were not `reporter:` lines (at most 5). */
  readonly lastLines: readonly string[];
}

export function succeeded(o: ProcessOutcome): boolean {
  return o.code === 0 && !o.spawnError && o.inputError === undefined;
}

/** The children of one run; kills them all on demand (idempotent). */
export class ChildSet {
  private readonly live = new Set<ChildProcess>();
  private killed = false;

  add(child: ChildProcess): void {
    if (this.killed) child.kill('SIGKILL');
    this.live.add(child);
    child.once('close', () => this.live.delete(child));
  }

  killAll(): void {
    this.killed = true;
    for (const child of this.live) child.kill('SIGKILL');
  }

  get size(): number {
    return this.live.size;
  }
}

export type PipelineInput = { readonly kind: 'stream'; readonly stream: Readable } | { readonly kind: 'none' };
export type PipelineOutput = { readonly kind: 'fd'; readonly fd: number } | { readonly kind: 'pipe' };

export interface Pipeline {
  /**
   * The last process's stdout when the output is `pipe`: the caller must consume it, but may
   * start reading it later (after awaits), even after the processes have exited.
   */
  readonly stdout: Readable | null;
  /** Settles when every process has exited and its stderr is read; never rejects. */
  readonly done: Promise<ProcessOutcome[]>;
  /** Kills this pipeline's processes (not the other tasks' in the same `ChildSet`). */
  kill(): void;
}

export function startPipeline(commands: readonly Command[], input: PipelineInput, output: PipelineOutput, children: ChildSet): Pipeline {
  const outcomes: Promise<ProcessOutcome>[] = [];
  let upstream: Readable | null = null;
  let lastStdout: Readable | null = null;
  const own: ChildProcess[] = [];
  let inputError: string | undefined;
  commands.forEach((cmd, i) => {
    const isLast = i === commands.length - 1;
    const stdin = i === 0 ? (input.kind === 'stream' ? 'pipe' : 'ignore') : (upstream as Readable);
    const stdout = isLast && output.kind === 'fd' ? output.fd : 'pipe';
    const child = spawn(cmd.file, cmd.args, { stdio: [stdin, stdout, 'pipe'], env: cmd.env ?? process.env });
    children.add(child);
    own.push(child);
    // The child holds its own copy of the pipe: closing ours lets a dead reader give the writer EPIPE.
    if (i > 0) (upstream as Readable).destroy();
    if (i === 0 && input.kind === 'stream' && child.stdin) {
      child.stdin.on('error', () => {}); // EPIPE when the task dies early: its exit status tells the story
      input.stream.on('error', (e) => {
        inputError = e.message;
        child.stdin?.destroy(e);
      });
      input.stream.pipe(child.stdin);
    }
    outcomes.push(watch(cmd.label, child));
    upstream = child.stdout;
    // Read the last stdout from now on, into a PassThrough the caller reads when it comes to it.
    // Node resumes the stdout of an exited child that has no reader yet (child_process
    // flushStdio, on the tick after 'exit') and its data then goes nowhere: a map task whose
    // mapper ended while the backend was still opening its partition files lost its whole
    // output, and succeeded (seen under load as lower scores with the same counters). The
    // PassThrough's buffer is bounded: past it, `pipeline` pauses the child's stdout as any
    // slow reader would.
    if (isLast && child.stdout) lastStdout = pipeline(child.stdout, new PassThrough(), () => {});
  });
  return {
    stdout: lastStdout,
    done: Promise.all(outcomes).then((os) => (inputError === undefined ? os : os.map((o, i) => (i === 0 ? { ...o, inputError } : o)))),
    kill: () => {
      for (const child of own) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

function watch(label: string, child: ChildProcess): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    const counters: CounterLine[] = [];
    const lastLines: string[] = [];
    let spawnError: string | undefined;
    let carry = '';
    const takeLine = (line: string) => {
      const counter = parseReporterLine(line);
      if (counter === 'status') return;
      if (counter) counters.push(counter);
      else if (line.length > 0) {
        lastLines.push(line);
        if (lastLines.length > 5) lastLines.shift();
      }
    };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      const lines = (carry + chunk).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) takeLine(line);
    });
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      if (carry) takeLine(carry);
      resolve({ label, code, signal, spawnError, counters, lastLines });
    });
  });
}

/**
 * The outcome that explains a failed pipeline: a failed job script before a failed `sort`
 * (a reducer that dies makes its sort fail with EPIPE), else the first failure upstream.
 */
export function rootFailure(outcomes: readonly ProcessOutcome[]): ProcessOutcome | undefined {
  const failed = outcomes.filter((o) => !succeeded(o));
  return failed.find((o) => o.label !== 'sort' && o.signal !== 'SIGPIPE') ?? failed[0];
}

/** How the process failed, without its stderr. */
export function describeExit(o: ProcessOutcome): string {
  if (o.inputError !== undefined) return `${o.label} got part of its input only (reading it failed: ${o.inputError})`;
  const how = o.spawnError
    ? `could not start: ${o.spawnError}`
    : o.signal
      ? `was killed by ${o.signal}`
      : `exited with code ${o.code}`;
  return `${o.label} ${how}`;
}

export function describeFailure(o: ProcessOutcome): string {
  if (o.inputError !== undefined) return describeExit(o);
  const how = o.spawnError
    ? `could not start: ${o.spawnError}`
    : o.signal
      ? `was killed by ${o.signal}`
      : `exited with code ${o.code}`;
  const last = o.lastLines[o.lastLines.length - 1];
  return last && !o.spawnError ? `${o.label} ${how}: ${last}` : `${o.label} ${how}`;
}
