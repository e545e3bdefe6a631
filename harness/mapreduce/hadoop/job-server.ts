/**
 * One JVM for a run's jobs in Hadoop's local mode: `hadoop/src/nddbench/JobServer.java` (compiled
 * by install.ts) reads a job a line on stdin, runs it as `hadoop jar hadoop-streaming.jar` would,
 * its output into the job's log file, and answers `exit <code>`. A job then costs its own work,
 * not a JVM's start and Hadoop's class loading (~3 s a job, docs/performance.md).
 *
 * The server owns a folder: its working folder (`cwd/`, where LocalDistributedCacheManager links
 * each job's -files and the tasks run; the server empties it around every job), its log4j
 * configuration, its Hadoop configuration folder (`conf/core-site.xml`, first on its class path)
 * and its own log. It runs in a process group of its own, as every Hadoop command
 * does (process-group.ts): an abort kills the group (the JVM and its task processes), waits
 * until none of it runs, and removes the folder. A server that has failed a job is not reused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { endGroup, killGroup, type Exit } from './process-group.ts';
import type { JobServerCommand } from './runtime.ts';

/** USER_HZ, as in streaming/cpu.ts. */
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU seconds of a live process and of the children it has reaped (the JVM waits for every task
 * process it starts): /proc/<pid>/stat's utime, stime, cutime and cstime. Undefined without /proc.
 */
export function processCpuS(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the name start at field 3 (state); utime is field 14, cstime field 17.
  const ticks = [14, 15, 16, 17].map((f) => Number(fields[f - 3]));
  return ticks.every(Number.isFinite) ? ticks.reduce((a, b) => a + b, 0) / CLOCK_TICKS_PER_S : undefined;
}

/** Lines of the server's own log quoted when it dies. */
const TAIL_LINES = 12;

export class JobServer {
  private readonly replies: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private exited: Exit | undefined;
  private readonly ended: Promise<Exit>;
  private busy = false;

  private constructor(
    private readonly child: ChildProcess,
    /** the folder the server owns */
    readonly folder: string,
  ) {
    this.ended = new Promise<Exit>((resolve) => {
      child.on('error', (e) => resolve({ code: null, signal: null, spawnError: e.message }));
      child.on('close', (code, signal) => resolve({ code, signal }));
    }).then(async (exit) => {
      // the group goes with its JVM: a task process the JVM left behind is killed
      await endGroup(this.child.pid);
      this.exited = exit;
      this.deliver(undefined);
      return exit;
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.deliver(line));
  }

  /** Starts a server in a new folder `hadoop-jvm-*` of `parent`. */
  static async start(command: JobServerCommand, parent: string): Promise<JobServer> {
    const folder = await mkdtemp(join(parent, 'hadoop-jvm-'));
    await mkdir(join(folder, 'cwd'));
    const log4j = join(folder, 'log4j.properties');
    await writeFile(log4j, LOG4J);
    const conf = join(folder, 'conf');
    await mkdir(conf);
    await writeFile(join(conf, 'core-site.xml'), CORE_SITE);
    const cmd = command({ log4j, conf });
    const log = await open(join(folder, 'server.log'), 'w');
    try {
      const child = spawn(cmd.file, cmd.args, { cwd: join(folder, 'cwd'), env: cmd.env, stdio: ['pipe', 'pipe', log.fd], detached: true });
      // a write to a server that has died is reported by its exit, not as an unhandled error
      child.stdin!.on('error', () => undefined);
      return new JobServer(child, folder);
    } finally {
      await log.close();
    }
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  /** CPU seconds of the JVM and the task processes it reaped, so far; undefined without /proc. */
  cpuS(): number | undefined {
    return this.child.pid === undefined || !this.alive ? undefined : processCpuS(this.child.pid);
  }

  /**
   * Runs one job, its output into `logFile`. Resolves with Hadoop's exit code, or with how the JVM
   * ended when it died meanwhile (an abort kills it: the caller checks its signal first).
   */
  async run(args: readonly string[], logFile: string, signal: AbortSignal): Promise<Exit & { readonly died?: string }> {
    if (this.busy) throw new Error('hadoop job server: one job at a time');
    signal.throwIfAborted();
    const fields = [logFile, ...args];
    const bad = fields.find((f) => /[\t\r\n]/.test(f));
    if (bad !== undefined) throw new Error(`hadoop job server: ${JSON.stringify(bad)} holds a TAB or a line break, which its request line cannot carry`);
    this.busy = true;
    const onAbort = () => killGroup(this.child.pid);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const reply = this.nextLine();
      this.child.stdin!.write(`${fields.join('\t')}\n`);
      const line = await reply;
      const m = line === undefined ? null : /^exit (\d+)$/.exec(line);
      if (m) return { code: Number(m[1]), signal: null };
      const exit = await this.ended;
      return { ...exit, died: await this.logTail() };
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.busy = false;
    }
  }

  /** Ends the server (its stdin closed: it stops after the job at hand), then removes its folder. */
  async close(): Promise<void> {
    this.child.stdin!.end();
    const timer = setTimeout(() => killGroup(this.child.pid), 30_000);
    await this.ended;
    clearTimeout(timer);
    await rm(this.folder, { recursive: true, force: true });
  }

  /** Kills the server and its task processes, waits until none of them runs, removes its folder. */
  async kill(): Promise<void> {
    killGroup(this.child.pid);
    await this.ended;
    await rm(this.folder, { recursive: true, force: true });
  }

  private nextLine(): Promise<string | undefined> {
    const queued = this.replies.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (!this.alive) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private deliver(line: string | undefined): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(line);
    } else if (line !== undefined) {
      this.replies.push(line);
    }
  }

  private async logTail(): Promise<string> {
    const log = await readFile(join(this.folder, 'server.log'), 'utf8').catch(() => '');
    return log.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
  }
}

/**
 * Hadoop's client log in local mode: warnings, and the job's progress and Counters block
 * (mapreduce.Job at INFO), which backend.ts reads. `follow`: the appender writes to whatever
 * System.err is at the time, which the server points at the job's log file.
 */
const LOG4J = `log4j.rootLogger=WARN,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.follow=true
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{yy/MM/dd HH:mm:ss} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.mapreduce.Job=INFO
log4j.logger.org.apache.hadoop.mapreduce.JobSubmitter=INFO
`;

/**
 * Every Configuration the JVM makes reads core-site.xml from its class path, also those Hadoop
 * makes itself (LocalDistributedCacheManager's FileContext is `getLocalFSFileContext()` on a new
 * one), so the file system is named here rather than in each job's arguments: Hadoop's local
 * file system with its permission calls made by java.nio in the JVM
 * (hadoop/src/nddbench/NioLocalFileSystem.java), where without Hadoop's native library it forks a
 * `chmod`, `ls -ld` or `readlink` for each (about 78 processes a job).
 */
const CORE_SITE = `<?xml version="1.0"?>
<configuration>
  <property><name>fs.file.impl</name><value>nddbench.NioLocalFileSystem</value></property>
  <property><name>fs.AbstractFileSystem.file.impl</name><value>nddbench.NioLocalFileSystem$Fs</value></property>
</configuration>
`;
