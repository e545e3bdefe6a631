/*
 * The `hadoop` backend's job server for Hadoop's local mode (the pinned jars): one JVM runs a
 * run's hadoop-streaming jobs one after another, each exactly as `hadoop jar
 * hadoop-streaming.jar ARGS` would (HadoopStreaming's main is ToolRunner.run(new StreamJob(),
 * ARGS) with a fresh Configuration), so that a job pays for Hadoop's class loading and JIT once
 * a run instead of once a job (~3 s of a small job's JVM). Compiled by the project's installer
 * (harness/mapreduce/hadoop/install.ts) with javac against the pinned jars into the cache; never
 * committed as a binary.
 *
 * Protocol, one job at a time: a request is one line on stdin, TAB-separated: the job's log file,
 * then its arguments. Everything the job prints (its stdout and stderr, Hadoop's log through a
 * ConsoleAppender with follow=true, the tasks' stderr that PipeMapRed copies) goes to that log
 * file, as a `hadoop jar` process's output would. The reply is one line on stdout: `exit <code>`.
 * End of stdin ends the server.
 *
 * The working folder: LocalDistributedCacheManager links each -files entry into user.dir, and
 * PipeMapRed starts the task commands (`node ndd-job.js --spec spec.json …`) there, so the jobs
 * share the JVM's one working folder. It links a name only when nothing is at it yet, so a link
 * left behind would silently hand a job another job's spec. Hence: the folder is emptied before
 * and after every job, and a job's LocalJobRunner thread, which removes its links only after
 * reporting success, is waited for before the next job can make links of the same names.
 */
package nddbench;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.streaming.StreamJob;
import org.apache.hadoop.util.ToolRunner;

public final class JobServer {
  /** The class of LocalJobRunner's job thread (package-private in Hadoop, so named). */
  private static final String LOCAL_JOB_THREAD = "org.apache.hadoop.mapred.LocalJobRunner$Job";
  /** How long a finished job's thread may take to remove its links. */
  private static final long JOB_THREAD_WAIT_MS = 60_000;
  /** A job that could not even start (a Java exception before Hadoop's own exit code). */
  private static final int THREW = 255;

  private JobServer() {}

  public static void main(String[] argv) throws IOException, InterruptedException {
    PrintStream replies = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    PrintStream own = System.err;
    // stdout is the reply channel: nothing else may write to it.
    System.setOut(own);
    Path folder = Paths.get(System.getProperty("user.dir"));
    BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = requests.readLine()) != null; ) {
      if (line.isEmpty()) continue;
      String[] fields = line.split("\t", -1);
      int code = runJob(fields[0], Arrays.copyOfRange(fields, 1, fields.length), folder, own);
      replies.println("exit " + code);
    }
  }

  private static int runJob(String logFile, String[] args, Path folder, PrintStream own) throws IOException, InterruptedException {
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    try (PrintStream log = new PrintStream(new FileOutputStream(logFile), true, StandardCharsets.UTF_8)) {
      System.setOut(log);
      System.setErr(log);
      try {
        empty(folder);
        return ToolRunner.run(new Configuration(), new StreamJob(), args);
      } catch (Exception e) {
        e.printStackTrace(log);
        return THREW;
      } finally {
        awaitJobThreads(before, log);
        empty(folder);
        System.setOut(own);
        System.setErr(own);
      }
    }
  }

  /** Waits for the LocalJobRunner job threads this job started (they remove the job's links last). */
  private static void awaitJobThreads(Set<Thread> before, PrintStream log) throws InterruptedException {
    long deadline = System.currentTimeMillis() + JOB_THREAD_WAIT_MS;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (before.contains(t) || !t.getClass().getName().equals(LOCAL_JOB_THREAD)) continue;
      t.join(Math.max(1, deadline - System.currentTimeMillis()));
      if (t.isAlive()) log.println("ndd-bench job server: LocalJobRunner's job thread still runs after " + JOB_THREAD_WAIT_MS + " ms");
    }
  }

  /** Removes everything in the working folder (links are removed, never followed). */
  private static void empty(Path folder) throws IOException {
    try (Stream<Path> entries = Files.walk(folder)) {
      for (Path p : (Iterable<Path>) entries.sorted(Comparator.reverseOrder())::iterator) {
        if (!p.equals(folder)) Files.deleteIfExists(p);
      }
    }
  }
}
