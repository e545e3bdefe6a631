/**
 * Copies Apache Hadoop's jars at the version hadoop/pom.xml pins from Maven Central into the
 * cache and compiles the local mode's job server (hadoop/src/nddbench/JobServer.java) against
 * them with javac (once; offline afterwards), and prints both folders. The `hadoop` backend and
 * the tests that run real Hadoop call `ensureHadoopJars()` themselves, so no separate setup step
 * is needed.
 *
 *   node --import tsx scripts/ensure-hadoop.ts     → prints the lib folder and the job server's, or exits 1 saying why not
 */
import { pathToFileURL } from 'node:url';
import { ensureHadoopJars } from '../harness/mapreduce/hadoop/install.ts';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = ensureHadoopJars((line) => console.error(line));
  if (r.found) {
    console.log(r.lib);
    console.log(r.jobServer);
  } else {
    console.error(`ensure-hadoop: ${r.reason}`);
    process.exitCode = 1;
  }
}
