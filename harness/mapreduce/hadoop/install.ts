/**
 * Apache Hadoop's own jars at the version `hadoop/pom.xml` pins (and, for the test on YARN, the
 * mini cluster's of `hadoop/minicluster/pom.xml`), copied from Maven Central by Maven into the
 * user's cache (`<cache>/hadoop/<version>-<pom digest>/lib`, or NDD_BENCH_HADOOP_DIR), never
 * into git.
 * Idempotent and offline once cached: a folder is used only when its `manifest.json` (written
 * last, with every jar's SHA-256) is there and every jar it lists still has its size; a changed
 * pom gets a folder of its own. A copy that fails leaves nothing behind (it is made in a
 * temporary folder of this process and renamed into place whole).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../../corpus/cache.ts';
import { processAlive } from '../../runtime/cache-folder.ts';

export const HADOOP_POM = fileURLToPath(new URL('../../../hadoop/pom.xml', import.meta.url));
/** The local mode's job server (job-server.ts), compiled here against the pinned jars. */
export const JOB_SERVER_SOURCE = fileURLToPath(new URL('../../../hadoop/src/nddbench/JobServer.java', import.meta.url));
/** The job server's file:// file system (permissions by java.nio, not forked commands), compiled with it. */
export const JOB_SERVER_FS_SOURCE = fileURLToPath(new URL('../../../hadoop/src/nddbench/NioLocalFileSystem.java', import.meta.url));
export const JOB_SERVER_CLASS = 'nddbench.JobServer';
/**
 * Hadoop's mini cluster (HDFS and YARN in one JVM) for the real-Hadoop test on YARN: its own pom
 * (`hadoop-minicluster` and JUnit, at the same Hadoop version) and its launcher, compiled here.
 */
export const MINI_CLUSTER_POM = fileURLToPath(new URL('../../../hadoop/minicluster/pom.xml', import.meta.url));
export const MINI_CLUSTER_SOURCE = fileURLToPath(new URL('../../../hadoop/src/nddbench/MiniCluster.java', import.meta.url));
export const MINI_CLUSTER_CLASS = 'nddbench.MiniCluster';

export interface HadoopJars {
  readonly version: string;
  /** the folder of every jar (the class path is `<lib>/*`) */
  readonly lib: string;
  /** Hadoop's streaming jar in `lib` */
  readonly streamingJar: string;
}

export type HadoopLookup = ({ readonly found: true; readonly jobServer: string } & HadoopJars) | { readonly found: false; readonly reason: string };

export interface MiniClusterJars {
  readonly version: string;
  /** the folder of every jar of the mini cluster (its class path and its containers' is `<lib>/*`) */
  readonly lib: string;
  /** the launcher's compiled classes */
  readonly launcher: string;
}

export type MiniClusterLookup = ({ readonly found: true } & MiniClusterJars) | { readonly found: false; readonly reason: string };

/** One pom's jars: the pom, and the jar (a file name pattern) without which a copy is not whole. */
interface JarSet {
  readonly pom: string;
  readonly marker: RegExp;
}

const CLIENT: JarSet = { pom: HADOOP_POM, marker: /^hadoop-streaming-.*\.jar$/ };
const MINI_CLUSTER: JarSet = { pom: MINI_CLUSTER_POM, marker: /^hadoop-minicluster-.*\.jar$/ };

interface Manifest {
  readonly version: string;
  readonly pomSha256: string;
  readonly jars: readonly { readonly name: string; readonly bytes: number; readonly sha256: string }[];
}

/** The Hadoop version the pom pins (`<hadoop.version>`). */
export function pinnedVersion(pom: string): string {
  const m = /<hadoop\.version>([^<]+)<\/hadoop\.version>/.exec(pom);
  if (!m) throw new Error(`${HADOOP_POM}: no <hadoop.version> property`);
  return (m[1] as string).trim();
}

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Where the jars of this pom live: NDD_BENCH_HADOOP_DIR, else `hadoop/` of the user's cache
 * folder. Tools are not cached data: turning the corpus cache off (NDD_BENCH_CACHE_DIR=off, as
 * the tests do) does not move or disable them.
 */
export function hadoopFolder(env: NodeJS.ProcessEnv = process.env, pomFile: string = HADOOP_POM): string {
  const set = env['NDD_BENCH_HADOOP_DIR'];
  const root = set ? resolve(set) : join(cacheDir({ ...env, NDD_BENCH_CACHE_DIR: '' }) as string, 'hadoop');
  const pom = readFileSync(pomFile, 'utf8');
  return join(root, `${pinnedVersion(pom)}-${sha256(pom).slice(0, 12)}`);
}

function fromManifest(dir: string, marker: RegExp = CLIENT.marker): HadoopJars | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
  const lib = join(dir, 'lib');
  for (const jar of manifest.jars) {
    try {
      if (statSync(join(lib, jar.name)).size !== jar.bytes) return undefined;
    } catch {
      return undefined;
    }
  }
  const streaming = manifest.jars.find((j) => marker.test(j.name));
  if (!streaming) return undefined;
  return { version: manifest.version, lib, streamingJar: join(lib, streaming.name) };
}

/** The cached jars, without installing anything. */
export function findHadoopJars(env: NodeJS.ProcessEnv = process.env): HadoopJars | undefined {
  return fromManifest(hadoopFolder(env));
}

function run(file: string, args: readonly string[], cwd?: string): { ok: boolean; output: string } {
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: 15 * 60_000, ...(cwd ? { cwd } : {}), env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

function lastLines(text: string, n = 3): string {
  return text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join(' | ');
}

function has(command: string): boolean {
  return run(command, ['-version']).ok;
}

/** Maven and a JDK (javac compiles the job server), installed from Debian's packages when missing and this process is root. */
function ensureMaven(log: (line: string) => void): string | undefined {
  if (has('mvn') && has('java') && has('javac')) return undefined;
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'Maven (mvn) and a JDK 17+ (java, javac) are needed to fetch Hadoop\'s jars and build the job server: install them (e.g. apt-get install maven openjdk-17-jdk-headless)';
  log('mvn or java not found: apt-get install -y maven openjdk-17-jdk-headless');
  const pkgs = ['install', '-y', '--no-install-recommends', 'maven', 'openjdk-17-jdk-headless'];
  let r = run('apt-get', pkgs);
  if (!r.ok) {
    run('apt-get', ['update']);
    r = run('apt-get', pkgs);
  }
  return r.ok && has('mvn') && has('java') && has('javac') ? undefined : `apt-get install maven failed: ${lastLines(r.output)}`;
}

/**
 * Returns the pinned jars and the job server, copying the jars from Maven Central and compiling
 * the server first when they are not cached. `log` hears what is being installed (the copy takes
 * ~10–60 s the first time, the compilation a few seconds).
 */
export function ensureHadoopJars(log: (line: string) => void = () => {}, env: NodeJS.ProcessEnv = process.env): HadoopLookup {
  const jars = ensureJars(CLIENT, log, env);
  if (!jars.found) return jars;
  const server = ensureJobServer(jars, log);
  return server.found ? { ...jars, jobServer: server.classes } : { found: false, reason: server.reason };
}

/**
 * The mini cluster's jars and its compiled launcher, fetched and compiled as ensureHadoopJars
 * does (104 MB of jars; ~10–30 s the first time). The pom must pin the client's Hadoop version.
 */
export function ensureMiniClusterJars(log: (line: string) => void = () => {}, env: NodeJS.ProcessEnv = process.env): MiniClusterLookup {
  const client = pinnedVersion(readFileSync(HADOOP_POM, 'utf8'));
  const mini = pinnedVersion(readFileSync(MINI_CLUSTER_POM, 'utf8'));
  if (client !== mini) return { found: false, reason: `${MINI_CLUSTER_POM} pins Hadoop ${mini}, ${HADOOP_POM} ${client}: they must be the same` };
  // (its `streamingJar` is the marker, hadoop-minicluster's jar: the client's streaming jar is used)
  const jars = ensureJars(MINI_CLUSTER, log, env);
  if (!jars.found) return jars;
  const launcher = compileAgainst([MINI_CLUSTER_SOURCE], 'mini-cluster', jars, log);
  return launcher.found ? { found: true, version: jars.version, lib: jars.lib, launcher: launcher.classes } : { found: false, reason: launcher.reason };
}

type JarsLookup = ({ readonly found: true } & HadoopJars) | { readonly found: false; readonly reason: string };

function ensureJars(set: JarSet, log: (line: string) => void, env: NodeJS.ProcessEnv): JarsLookup {
  const dir = hadoopFolder(env, set.pom);
  const cached = fromManifest(dir, set.marker);
  if (cached) return { found: true, ...cached };
  // One copy at a time (two test files may ask at once): the others wait for it and use it.
  const lock = takeLock(`${dir}.lock`, log);
  try {
    const done = fromManifest(dir, set.marker);
    if (done) return { found: true, ...done };
    return copyJars(set, dir, log);
  } finally {
    rmSync(lock, { force: true });
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Creates `lock` holding this pid, waiting while a live process holds it (a dead holder's lock is taken over). */
function takeLock(lock: string, log: (line: string) => void): string {
  mkdirSync(dirname(lock), { recursive: true });
  for (let waited = 0; ; waited++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return lock;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number(readFileSync(lock, 'utf8').trim() || 'NaN');
    if (Number.isInteger(holder) && !processAlive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (waited === 0) log(`waiting for process ${holder}, which is fetching Hadoop's jars`);
    if (waited > 20 * 60) throw new Error(`${lock}: held by process ${holder} for 20 minutes`);
    sleepSync(1000);
  }
}

function copyJars(set: JarSet, dir: string, log: (line: string) => void): JarsLookup {
  const noMaven = ensureMaven(log);
  if (noMaven) return { found: false, reason: noMaven };
  const pom = readFileSync(set.pom, 'utf8');
  const version = pinnedVersion(pom);
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'lib'), { recursive: true });
  try {
    log(`fetching Apache Hadoop ${version}'s jars (${set.pom}) from Maven Central into ${dir}`);
    const r = run('mvn', ['-B', '-q', '-C', '-f', set.pom, 'dependency:copy-dependencies', `-DoutputDirectory=${join(tmp, 'lib')}`, '-DincludeScope=runtime']);
    if (!r.ok) return { found: false, reason: `mvn dependency:copy-dependencies failed: ${lastLines(r.output)}` };
    const jars = readdirSync(join(tmp, 'lib'))
      .filter((n) => n.endsWith('.jar'))
      .sort()
      .map((name) => {
        const bytes = readFileSync(join(tmp, 'lib', name));
        return { name, bytes: bytes.length, sha256: sha256(bytes) };
      });
    const manifest: Manifest = { version, pomSha256: sha256(pom), jars };
    writeFileSync(join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
    // Another process may have finished the same copy meanwhile: theirs is as good as ours.
    if (!fromManifest(dir, set.marker)) {
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const installed = fromManifest(dir, set.marker);
  return installed ? { found: true, ...installed } : { found: false, reason: `the copy into ${dir} has no jar named like ${set.marker.source}` };
}

/**
 * The job server's classes, compiled with javac against the pinned jars into
 * `<jars' folder>/job-server-<source digest>/` (a changed source gets a folder of its own), made
 * in a temporary folder and renamed into place whole; `<folder>/done` is written last.
 */
export function ensureJobServer(jars: HadoopJars, log: (line: string) => void): Compiled {
  return compileAgainst([JOB_SERVER_SOURCE, JOB_SERVER_FS_SOURCE], 'job-server', jars, log);
}

type Compiled = { readonly found: true; readonly classes: string } | { readonly found: false; readonly reason: string };

/** `files` compiled with javac against `jars` into `<jars' folder>/<name>-<sources' digest>/`, once. */
function compileAgainst(files: readonly string[], name: string, jars: { readonly lib: string }, log: (line: string) => void): Compiled {
  // one source alone keeps the digest it always had, so that a compiled folder already in a cache stays valid
  const source = files.length === 1 ? readFileSync(files[0]!) : Buffer.concat(files.map((f) => Buffer.from(`${sha256(readFileSync(f))}\n`)));
  const dir = join(dirname(jars.lib), `${name}-${sha256(source).slice(0, 12)}`);
  const done = () => existsSync(join(dir, 'done'));
  if (done()) return { found: true, classes: dir };
  const lock = takeLock(`${dir}.lock`, log);
  try {
    if (done()) return { found: true, classes: dir };
    if (!has('javac')) {
      const noJdk = ensureMaven(log);
      if (noJdk) return { found: false, reason: noJdk };
    }
    log(`compiling ${files.join(', ')} into ${dir}`);
    const tmp = `${dir}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    try {
      const r = run('javac', ['-nowarn', '-encoding', 'UTF-8', '-d', tmp, '-cp', join(jars.lib, '*'), ...files]);
      if (!r.ok) return { found: false, reason: `javac ${files.join(' ')} failed: ${lastLines(r.output)}` };
      writeFileSync(join(tmp, 'done'), `${sha256(source)}\n`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    return { found: true, classes: dir };
  } finally {
    rmSync(lock, { force: true });
  }
}
