/**
 * A Hadoop installation as Apache's tarball lays it out, for the `hadoop` backend's
 * `installation: auto` (HADOOP_HOME): `share/hadoop/tools/lib/hadoop-streaming-<v>.jar`,
 * `etc/hadoop/` (the site files: empty ones for local mode, a mini cluster's for YARN), and
 * `bin/hadoop` reduced to the two commands the backend uses (`jar` and `fs`) on the given jars.
 * The client JVMs keep their temporary files (RunJar's unpacked jar, StreamJob's job jar) in
 * `<home>/tmp`, not in /tmp.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HadoopHomeOptions {
  /** the folder to lay out (it must exist) */
  readonly home: string;
  /** Hadoop's streaming jar */
  readonly streamingJar: string;
  readonly version: string;
  /** the folder of the client's jars (class path `<lib>/*`) */
  readonly lib: string;
  /** the folder of the site files (default `<home>/etc/hadoop`, written empty) */
  readonly conf?: string;
}

const LOG4J =
  'hadoop.root.logger=INFO,console\nlog4j.rootLogger=${hadoop.root.logger}\nlog4j.appender.console=org.apache.log4j.ConsoleAppender\nlog4j.appender.console.target=System.err\nlog4j.appender.console.layout=org.apache.log4j.PatternLayout\nlog4j.appender.console.layout.ConversionPattern=%p %c{2}: %m%n\n';

/** Lays out the installation in `o.home` and returns it. */
export function writeHadoopHome(o: HadoopHomeOptions): string {
  const conf = o.conf ?? join(o.home, 'etc', 'hadoop');
  mkdirSync(join(o.home, 'bin'));
  mkdirSync(join(o.home, 'tmp'));
  mkdirSync(conf, { recursive: true });
  mkdirSync(join(o.home, 'share', 'hadoop', 'tools', 'lib'), { recursive: true });
  symlinkSync(o.streamingJar, join(o.home, 'share', 'hadoop', 'tools', 'lib', `hadoop-streaming-${o.version}.jar`));
  if (o.conf === undefined) {
    // the tarball's site files are empty configurations (Configuration refuses a missing one)
    for (const site of ['core', 'hdfs', 'mapred', 'yarn']) writeFileSync(join(conf, `${site}-site.xml`), '<configuration/>\n');
  }
  writeFileSync(join(conf, 'log4j.properties'), LOG4J);
  const java = `java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.io.tmpdir=${join(o.home, 'tmp')}`;
  writeFileSync(
    join(o.home, 'bin', 'hadoop'),
    `#!/bin/sh
# bin/hadoop's two commands the backend uses, on the given jars
cp="${conf}:${join(o.lib, '*')}"
cmd="$1"; shift
case "$cmd" in
  jar) exec ${java} -Dhadoop.root.logger="$HADOOP_ROOT_LOGGER" -cp "$cp" org.apache.hadoop.util.RunJar "$@" ;;
  fs) exec ${java} -cp "$cp" org.apache.hadoop.fs.FsShell "$@" ;;
  *) echo "hadoop: unknown command $cmd" >&2; exit 1 ;;
esac
`,
  );
  chmodSync(join(o.home, 'bin', 'hadoop'), 0o755);
  return o.home;
}
