/*
 * Apache Hadoop's mini cluster for the real-Hadoop test on YARN: one NameNode and one DataNode
 * (MiniDFSCluster), one ResourceManager, one NodeManager and a JobHistoryServer
 * (MiniMRYarnCluster), all in this JVM, the ApplicationMasters and tasks in containers the
 * NodeManager starts. Compiled by the project's installer (harness/mapreduce/hadoop/install.ts)
 * with javac against hadoop/minicluster/pom.xml's jars into the cache; never committed as a binary.
 *
 *   java -cp <classes>:<lib>/* nddbench.MiniCluster <conf folder> <lib folder>
 *
 * The working folder (user.dir) holds the cluster's disks (MiniYARNCluster puts its own under
 * target/). Once the cluster runs, the client's configuration is written into <conf folder> as
 * an installation's etc/hadoop has it (core-, hdfs-, mapred- and yarn-site.xml), and one line `ready <fs.defaultFS>` is printed on stdout. End of stdin stops the cluster
 * and ends the JVM, so a parent that dies takes its cluster with it.
 *
 * Why these settings (docs/backends.md has the measurements):
 *   - The client's configuration is every property set here or by the mini cluster's own
 *     services (the real ports, the staging and history folders), not the *-default.xml ones:
 *     MiniHadoopClusterManager's -writeConfig writes `mapreduce.framework.name=local` and port 0.
 *   - Uber mode with up to 16 maps and 2 reduces: a small job's tasks run one after another inside
 *     its ApplicationMaster's JVM instead of a container JVM each (a JVM start with this class
 *     path is 10-15 s on the development machine under load). The job is still Hadoop's: splits,
 *     spill, sort, merge and shuffle of map outputs by partition, the output committer, counters.
 *   - Heartbeats and polls of 100 ms instead of 1-5 s: the client otherwise learns of a finished
 *     job up to 5 s late (mapreduce.client.completion.pollinterval).
 *   - The containers' class path is this cluster's jars, and their JVMs get the --add-opens
 *     Java 17 needs for YARN's Guice/cglib, the client compiler and the serial collector.
 */
package nddbench;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;

public final class MiniCluster {
  private MiniCluster() {}

  /** How long stopping the cluster may take before the JVM ends anyway. */
  private static final long STOP_WAIT_MS = 30_000;

  static final String JAVA_OPTS = String.join(" ",
      "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED");

  /** Settings of the cluster and of every job submitted to it. */
  static void tune(Configuration conf, String lib) {
    String classpath = new File(lib).getAbsolutePath() + "/*";
    conf.set("yarn.application.classpath", classpath);
    conf.set("mapreduce.application.classpath", classpath);
    conf.set("dfs.replication", "1");
    // YARN: one NodeManager, fast heartbeats, small containers
    conf.set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "100");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.nodemanager.resource.memory-mb", "2048");
    conf.set("yarn.nodemanager.vmem-check-enabled", "false");
    conf.set("yarn.nodemanager.pmem-check-enabled", "false");
    conf.set("yarn.nodemanager.container-monitor.interval-ms", "1000");
    conf.set("yarn.nodemanager.delete.debug-delay-sec", "0");
    // a shared development disk over 90% full would otherwise take the NodeManager's disks away
    // and leave every job waiting for a container
    conf.set("yarn.nodemanager.disk-health-checker.enable", "false");
    conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100");
    jobs(conf);
  }

  /**
   * Settings of every job: the client reads them from core-site.xml, and they are applied last
   * there, because MiniMRYarnCluster turns uber mode off in its own configuration.
   */
  static void jobs(Configuration conf) {
    conf.set("mapreduce.job.ubertask.enable", "true");
    conf.set("mapreduce.job.ubertask.maxmaps", "16");
    conf.set("mapreduce.job.ubertask.maxreduces", "2");
    conf.set("mapreduce.job.ubertask.maxbytes", String.valueOf(1L << 30));
    conf.set("yarn.app.mapreduce.am.resource.mb", "512");
    conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m " + JAVA_OPTS);
    conf.set("yarn.app.mapreduce.am.admin-command-opts", "");
    conf.set("mapreduce.map.memory.mb", "256");
    conf.set("mapreduce.reduce.memory.mb", "256");
    conf.set("mapreduce.map.java.opts", "-Xmx200m " + JAVA_OPTS);
    conf.set("mapreduce.reduce.java.opts", "-Xmx200m " + JAVA_OPTS);
    conf.set("mapreduce.admin.map.child.java.opts", "");
    conf.set("mapreduce.admin.reduce.child.java.opts", "");
    conf.set("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "100");
    conf.set("mapreduce.client.progressmonitor.pollinterval", "100");
    conf.set("mapreduce.client.completion.pollinterval", "100");
    conf.set("mapreduce.task.io.sort.mb", "32");
  }

  public static void main(String[] argv) throws Exception {
    if (argv.length != 2) {
      System.err.println("usage: nddbench.MiniCluster <conf folder> <lib folder>");
      System.exit(2);
    }
    PrintStream replies = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    // stdout is the ready line only: Hadoop's own output goes to stderr
    System.setOut(System.err);
    File work = new File(System.getProperty("user.dir"));
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", new File(work, "tmp").getAbsolutePath());
    tune(conf, argv[1]);
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(work, "dfs")).numDataNodes(1).format(true).build();
    dfs.waitActive();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    MiniMRYarnCluster yarn = new MiniMRYarnCluster("ndd", 1);
    yarn.init(conf);
    yarn.start();
    writeClientConf(yarn.getConfig(), new File(argv[0]));
    replies.println("ready " + yarn.getConfig().get("fs.defaultFS"));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    while (in.readLine() != null) {
      // nothing to do: the cluster runs until stdin ends
    }
    // A parent that died cannot kill a stop that hangs: the JVM ends itself after a while.
    Thread halt = new Thread(() -> {
      try {
        Thread.sleep(STOP_WAIT_MS);
      } catch (InterruptedException e) {
        return;
      }
      Runtime.getRuntime().halt(1);
    });
    halt.setDaemon(true);
    halt.start();
    try {
      yarn.stop();
      dfs.shutdown();
    } finally {
      System.exit(0);
    }
  }

  /** Every property the cluster or this launcher set (its source is not a *-default.xml file). */
  static void writeClientConf(Configuration cluster, File folder) throws IOException {
    Configuration client = new Configuration(false);
    for (Map.Entry<String, String> e : cluster) {
      String[] sources = cluster.getPropertySources(e.getKey());
      boolean defaulted = sources != null && Arrays.stream(sources).allMatch(s -> s.endsWith("-default.xml"));
      if (!defaulted) client.set(e.getKey(), cluster.get(e.getKey()));
    }
    jobs(client);
    // The same file under each site name: a Configuration reads core-default, core-site, then
    // each of hdfs-, mapred- and yarn-default as its classes load, each followed by its -site,
    // so a property only in core-site.xml (mapreduce.framework.name=yarn) would be overridden by
    // mapred-default.xml's.
    Files.createDirectories(folder.toPath());
    for (String site : new String[] {"core", "hdfs", "mapred", "yarn"}) {
      try (OutputStream out = new FileOutputStream(new File(folder, site + "-site.xml"))) {
        client.writeXml(out);
      }
    }
  }
}
