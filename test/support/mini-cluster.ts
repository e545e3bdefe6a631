/**
 * Apache Hadoop's mini cluster (HDFS and YARN in one JVM, hadoop/src/nddbench/MiniCluster.java)
 * for a test file: started once in a folder of its own, with an installation (`HADOOP_HOME`,
 * test/support/hadoop-home.ts) whose site files name it, so that the `hadoop` backend runs on it
 * unchanged, as on a user's cluster: documents staged to HDFS with `hadoop fs -put`, each job a
 * YARN application, outputs read back with `hadoop fs -get`.
 *
 * The cluster's JVM runs in a process group of its own with its stdin a pipe from this process:
 * `stop()` ends stdin (the launcher then stops the cluster), kills the group after a grace
 * period (and at once if this process dies first, stdin ends with it), and removes the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { endGroup, groupRunning } from '../../harness/mapreduce/hadoop/process-group.ts';
import { MINI_CLUSTER_CLASS, type HadoopJars, type MiniClusterJars } from '../../harness/mapreduce/hadoop/install.ts';
import { writeHadoopHome } from './hadoop-home.ts';

/** The --add-opens YARN's web app needs on Java 17 (without them its start hangs on Guice's cglib). */
const ADD_OPENS = ['java.lang', 'java.util', 'java.lang.reflect', 'java.net', 'java.io'].map((p) => `--add-opens=java.base/${p}=ALL-UNNAMED`);
const START_TIMEOUT_MS = 240_000;
const STOP_GRACE_MS = 20_000;

export interface MiniCluster {
  /** the installation naming the cluster (set HADOOP_HOME to it) */
  readonly home: string;
  /** the NameNode's URI, `hdfs://localhost:<port>` */
  readonly defaultFs: string;
  /** how long the start took, ms */
  readonly startMs: number;
  /** the cluster JVM's pid (its process group's id) */
  readonly pid: number;
  stop(): Promise<void>;
}

function tail(file: string, lines = 8): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Starts the cluster; the client's installation uses `client`'s streaming jar and the cluster's jars. */
export async function startMiniCluster(mini: MiniClusterJars, client: HadoopJars): Promise<MiniCluster> {
  const folder = mkdtempSync(join(tmpdir(), 'hadoop-mini-'));
  const work = join(folder, 'cluster');
  const conf = join(folder, 'home', 'etc', 'hadoop');
  mkdirSync(join(work, 'tmp'), { recursive: true });
  const log = join(folder, 'cluster.log');
  const logFd = openSync(log, 'w');
  const t0 = Date.now();
  let child: ChildProcess;
  try {
    child = spawn(
      'java',
      ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', ...ADD_OPENS, `-Djava.io.tmpdir=${join(work, 'tmp')}`, '-cp', `${mini.launcher}:${join(mini.lib, '*')}`, MINI_CLUSTER_CLASS, conf, mini.lib],
      { cwd: work, stdio: ['pipe', 'pipe', logFd], detached: true },
    );
  } finally {
    closeSync(logFd);
  }
  child.stdin!.on('error', () => undefined);
  const pid = child.pid as number;
  const stop = async (): Promise<void> => {
    child.stdin!.end();
    for (const t = Date.now(); groupRunning(pid) && Date.now() - t < STOP_GRACE_MS; ) await sleep(100);
    await endGroup(pid);
    rmSync(folder, { recursive: true, force: true });
  };
  const ready = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('ready ')) {
        clearTimeout(timer);
        resolve(line.slice('ready '.length));
      }
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  if (ready === undefined) {
    const said = tail(log);
    await stop();
    throw new Error(`the mini cluster did not start within ${START_TIMEOUT_MS / 1000} s:\n${said}`);
  }
  const home = writeHadoopHome({ home: join(folder, 'home'), streamingJar: client.streamingJar, version: client.version, lib: mini.lib, conf });
  return { home, defaultFs: ready, startMs: Date.now() - t0, pid, stop };
}
