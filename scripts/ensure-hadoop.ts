/**
 * Copies Apache Hadoop's jars at the version hadoop/pom.xml pins from Maven Central into the
 * cache and compiles the local mode's job server (hadoop/src/nddbench/JobServer.java) against
 * them with javac (once; offline afterwards), and prints both folders. The `hadoop` backend and
 * the tests that run real Hadoop call `ensureHadoopJars()` themselves, so no separate setup step
 * is needed.
 *
 *   node --import tsx scripts/ensure-hadoop.ts     → prints the lib folder and the job server's, or exits 1 saying why not
 *   node --import tsx scripts/ensure-hadoop.ts --mini-cluster
 *                                                 → also the mini cluster's jars and launcher (hadoop/minicluster/pom.xml,
 *                                                   for test/harness/mapreduce/hadoop/mini-cluster.test.ts), and prints their folders
 */
import { pathToFileURL } from 'node:url';
import { ensureHadoopJars, ensureMiniClusterJars } from '../harness/mapreduce/hadoop/install.ts';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const log = (line: string) => console.error(line);
  const r = ensureHadoopJars(log);
  const mini = r.found && process.argv.includes('--mini-cluster') ? ensureMiniClusterJars(log) : undefined;
  if (!r.found || (mini && !mini.found)) {
    console.error(`ensure-hadoop: ${!r.found ? r.reason : mini && !mini.found ? mini.reason : ''}`);
    process.exitCode = 1;
  } else {
    console.log(r.lib);
    console.log(r.jobServer);
    if (mini?.found) {
      console.log(mini.lib);
      console.log(mini.launcher);
    }
  }
}
