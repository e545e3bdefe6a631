/**
 * Which Hadoop runs the jobs, and how to start it:
 *   - the user's installation: `$HADOOP_HOME/bin/hadoop`, else `hadoop` on the PATH; jobs by
 *     `hadoop jar <its streaming jar>`, files moved with `hadoop fs` (their default file system:
 *     HDFS on a cluster, the local disk on an unconfigured installation);
 *   - otherwise Hadoop's local mode (LocalJobRunner, file:// paths) in one JVM from the jars
 *     `hadoop/pom.xml` pins, which `install.ts` copies into the cache.
 * Every process is started in a process group of its own, so that an abort kills the JVM and
 * every task process it started (`processTree.ts`).
 */
import { accessSync, constants, readdirSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { UserError } from '../../errors.ts';
import type { HadoopConfig } from './config.ts';
import { ensureHadoopJars, JOB_SERVER_CLASS } from './install.ts';

export interface HadoopCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** A job server's JVM (job-server.ts), started with its log4j file and its Hadoop configuration folder (core-site.xml). */
export type JobServerCommand = (o: { readonly log4j: string; readonly conf: string }) => HadoopCommand;

/** The user's installation: one `hadoop jar` process a job, files moved with `hadoop fs`. */
export interface InstalledHadoop {
  /** For run.json and the progress line. */
  readonly description: string;
  readonly pinned: false;
  /** `hadoop jar <streaming jar> <args>` */
  streaming(args: readonly string[]): HadoopCommand;
  /** `hadoop fs <args>` */
  fs(args: readonly string[]): HadoopCommand;
}

/**
 * Local mode from the pinned jars: datasets are file:// folders in the run's work folder, and a
 * run's jobs run one after another on one JVM, the job server (job-server.ts). A user's
 * installation keeps one process a job, as its own launcher, configuration and cluster expect.
 */
export interface PinnedHadoop {
  readonly description: string;
  readonly pinned: true;
  readonly jobServer: JobServerCommand;
}

export type HadoopRuntime = InstalledHadoop | PinnedHadoop;

/** What the task processes and the JVM must not inherit from this process. */
function cleanEnv(from: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...from };
  // The cluster runs the bundle with a plain node: no loaders or flags inherited from a test runner.
  delete env.NODE_OPTIONS;
  return env;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The `hadoop` launcher: HADOOP_HOME's, else the first on the PATH. */
export function findHadoopCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = env['HADOOP_HOME'];
  if (home) {
    const bin = join(home, 'bin', 'hadoop');
    return executable(bin) ? bin : undefined;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir && executable(join(dir, 'hadoop'))) return join(dir, 'hadoop');
  }
  return undefined;
}

/** The installation's streaming jar: `<home>/share/hadoop/tools/lib/hadoop-streaming-<v>.jar`. */
export function installedStreamingJar(hadoop: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = env['HADOOP_HOME'] || dirname(dirname(realpathSync(hadoop)));
  const lib = join(home, 'share', 'hadoop', 'tools', 'lib');
  try {
    const jar = readdirSync(lib).find((n) => /^hadoop-streaming-[\d.]+.*\.jar$/.test(n) && !n.includes('test') && !n.includes('sources'));
    return jar === undefined ? undefined : join(lib, jar);
  } catch {
    return undefined;
  }
}

function installation(hadoop: string, jar: string, from: NodeJS.ProcessEnv): InstalledHadoop {
  // bin/hadoop logs at INFO to the console by default; said again so that the job's Counters block is printed.
  const env = { ...cleanEnv(from), HADOOP_ROOT_LOGGER: 'INFO,console' };
  return {
    description: `${hadoop} (${jar})`,
    pinned: false,
    streaming: (args) => ({ file: hadoop, args: ['jar', jar, ...args], env }),
    fs: (args) => ({ file: hadoop, args: ['fs', ...args], env }),
  };
}

/**
 * The job server's JVM. Java 17 runs Hadoop 3.4's local mode without --add-opens; the heap is the
 * JVM's default. The client compiler alone and the serial collector halved a JVM a job's CPU (3.7
 * → 1.8 CPU-s for a small job, docs/performance.md). The server lives for the run, where the
 * optimizing compiler could pay for itself, and did a little on the quickstart (its ground truth
 * and an SCT variant: 38.6–39.6 CPU-s tiered, 41.9–42.2 without), but cost the every-detector
 * test's 36 small jobs more (58.1 against 51.0 CPU-s, at one load): the suite runs on every change.
 */
export const JOB_SERVER_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

function pinned(log: (line: string) => void, env: NodeJS.ProcessEnv): PinnedHadoop {
  const jars = ensureHadoopJars(log, env);
  if (!jars.found) throw new UserError(`hadoop backend: no Hadoop installation (HADOOP_HOME, or hadoop on the PATH) and the pinned jars cannot be had: ${jars.reason}`);
  const java = env['JAVA_HOME'] ? join(env['JAVA_HOME'], 'bin', 'java') : 'java';
  const childEnv = cleanEnv(env);
  return {
    description: `Apache Hadoop ${jars.version} local mode (${jars.lib})`,
    pinned: true,
    jobServer: (s) => ({
      file: java,
      args: [...JOB_SERVER_JVM_FLAGS, `-Dlog4j.configuration=file:${s.log4j}`, '-cp', [s.conf, jars.jobServer, join(jars.lib, '*')].join(delimiter), JOB_SERVER_CLASS],
      env: childEnv,
    }),
  };
}

export function hadoopRuntime(config: HadoopConfig, log: (line: string) => void = () => {}, env: NodeJS.ProcessEnv = process.env): HadoopRuntime {
  if (config.installation === 'auto') {
    const hadoop = findHadoopCommand(env);
    if (hadoop !== undefined) {
      const jar = installedStreamingJar(hadoop, env);
      if (jar === undefined) {
        throw new UserError(`hadoop backend: ${hadoop} has no share/hadoop/tools/lib/hadoop-streaming-*.jar (set HADOOP_HOME to the installation's folder)`);
      }
      return installation(hadoop, jar, env);
    }
    if (env['HADOOP_HOME']) throw new UserError(`hadoop backend: HADOOP_HOME=${env['HADOOP_HOME']} has no executable bin/hadoop`);
  }
  return pinned(log, env);
}
