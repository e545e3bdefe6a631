"""The spark backend's driver: one Spark application runs every job of one variant's plan the way
Hadoop Streaming runs it, with the very job script the Hadoop steps run (`ndd-job.js`).

    python driver.py PLAN.json
    spark-submit --master M --files ndd-job.js,package.json,spec.json … driver.py PLAN-URI

PLAN.json (written by harness/mapreduce/spark/backend.ts; a path, or with spark-submit any URI
Spark's Hadoop file systems read: hdfs://, s3a://, gs://, file://):
    { "app_name", "master", "conf": {k: v}, "files": [URI of ndd-job.js, spec.json, package.json],
      (these three only for `python driver.py`; spark-submit gives them as --master, --conf, --files)
      "node", "datasets": {name: URI of its folder}, "map_tasks", "reduce_tasks",
      "jobs": [{"name", "inputs", "output", "side", "combiner", "reducer"}], "result": path or URI }

A job:
  map task     = one input split: its lines piped through `node ndd-job.js --phase map` (our own
                 subprocess, not RDD.pipe, which drops stderr: the task's `reporter:counter:` lines
                 are read from it); with a combiner, the task's output sorted by key bytes and piped
                 through `--phase combine`, as a Hadoop map task combines its sorted output
  shuffle      = Hadoop's: HashPartitioner on the key's bytes (WritableComparator.hashBytes), sorted
                 by key bytes within each partition (repartitionAndSortWithinPartitions)
  reduce task  = one partition piped through `--phase reduce`
  output       = part files under the dataset's folder (saveAsTextFile); a map-only job's are its map
                 tasks' outputs
Side datasets reach the tasks with SparkContext.addFile (a folder of part files), named by the
folder's base name in the task's working folder (SparkFiles' root, where ndd-job.js and spec.json are).

Counters: each task's counters are added to an accumulator under (job, phase, partition), so that a
task that Spark runs again (a retry after a failure, a recomputed stage) replaces its earlier value
instead of adding to it; the run's counters are the sum over those entries.

RESULT.json: {"ok": true, "counters": {group: {name: n}}, "jobs": [...]} or
{"ok": false, "job", "exit_code" (the failing task's), "task_line" (its last stderr line), "error"}.
"""
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse

from pyspark import AccumulatorParam, SparkConf, SparkContext, SparkFiles

COUNTER = b"reporter:counter:"
FAILED = "NDD-TASK-FAILED"
#: stderr lines of a task kept for its error (besides its counters)
TAIL = 20


def hadoop_partition_hash(key):
    """`WritableComparator.hashBytes` (h = 31 h + b over signed bytes, 32-bit) & Integer.MAX_VALUE:
    PySpark's partitionBy takes it modulo the partitions, as Hadoop's HashPartitioner does."""
    h = 1
    for b in key:
        h = (31 * h + (b - 256 if b > 127 else b)) & 0xFFFFFFFF
    return h & 0x7FFFFFFF


def record_key(line):
    """Hadoop Streaming's key: the line up to its first TAB (the whole line without one)."""
    tab = line.find(b"\t")
    return line if tab < 0 else line[:tab]


class LastWins(AccumulatorParam):
    """A dict accumulator whose entries a later update of the same key replaces."""

    def zero(self, value):
        return {}

    def addInPlace(self, a, b):
        a.update(b)
        return a


def parse_counters(lines):
    out = {}
    for line in lines:
        parts = line[len(COUNTER):].decode("utf-8", "replace").split(",")
        if len(parts) != 3 or not re.fullmatch(r"-?\d+", parts[2]):
            continue
        group = out.setdefault(parts[0], {})
        group[parts[1]] = group.get(parts[1], 0) + int(parts[2])
    return out


def add_counters(into, counters):
    for group, names in counters.items():
        g = into.setdefault(group, {})
        for name, n in names.items():
            g[name] = g.get(name, 0) + n


def pipe_task(lines, argv, what, counters):
    """Runs one task process over `lines` (bytes without newlines); yields its output lines and
    adds its counters to `counters` once it has exited 0. A failure raises, naming the task."""
    cwd = SparkFiles.getRootDirectory()
    # The script and spec by absolute path (SparkFiles' root on the task's machine): a task process says whose it is.
    argv = [argv[0], os.path.join(cwd, argv[1]), argv[2], os.path.join(cwd, argv[3]), *argv[4:]]
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    counter_lines = []
    tail = []
    feed_error = []

    def feed():
        try:
            for line in lines:
                proc.stdin.write(line)
                proc.stdin.write(b"\n")
        except BrokenPipeError:
            pass  # the task stopped reading: its exit code says why
        except BaseException as e:  # noqa: BLE001 - reported after the task ends
            feed_error.append(e)
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        for line in proc.stderr:
            line = line.rstrip(b"\n")
            if line.startswith(COUNTER):
                counter_lines.append(line)
            else:
                tail.append(line)
                del tail[:-TAIL]

    threads = [threading.Thread(target=feed, daemon=True), threading.Thread(target=drain, daemon=True)]
    for t in threads:
        t.start()
    for line in proc.stdout:
        yield line.rstrip(b"\n")
    for t in threads:
        t.join()
    code = proc.wait()
    if feed_error:
        raise feed_error[0]
    if code != 0:
        last = tail[-1].decode("utf-8", "replace") if tail else ""
        raise RuntimeError(f"{FAILED} code={code} {what}: {last}")
    add_counters(counters, parse_counters(counter_lines))


def task_argv(plan, job, phase):
    argv = [plan["node"], "ndd-job.js", "--spec", "spec.json", "--job", job["name"], "--phase", phase]
    for d in job["side"]:
        argv += ["--side", f"{d}={plan['datasets'][d].rstrip('/').rsplit('/', 1)[-1]}"]
    return argv


def run_job(sc, plan, j, job, acc):
    map_argv = task_argv(plan, job, "map")
    combine_argv = task_argv(plan, job, "combine") if job["combiner"] and job["reducer"] else None
    reduce_argv = task_argv(plan, job, "reduce") if job["reducer"] else None
    name = job["name"]

    def map_partition(index, lines):
        counters = {}
        out = pipe_task(lines, map_argv, f"job {name} map task {index}", counters)
        if combine_argv is not None:
            # Hadoop combines a map task's output sorted by key (bytes); Python's sort is stable.
            out = pipe_task(iter(sorted(out, key=record_key)), combine_argv, f"job {name} combine of map task {index}", counters)
        if reduce_argv is None:
            yield from out
        else:
            for line in out:
                yield (record_key(line), line)
        acc.add({(j, "map", index): counters})

    def reduce_partition(index, pairs):
        counters = {}
        yield from pipe_task((line for _, line in pairs), reduce_argv, f"job {name} reduce task {index}", counters)
        acc.add({(j, "reduce", index): counters})

    inputs = [sc.textFile(plan["datasets"][d], minPartitions=plan["map_tasks"], use_unicode=False) for d in job["inputs"]]
    rdd = inputs[0] if len(inputs) == 1 else sc.union(inputs)
    map_tasks = rdd.getNumPartitions()
    mapped = rdd.mapPartitionsWithIndex(map_partition)
    if reduce_argv is None:
        out = mapped
    else:
        shuffled = mapped.repartitionAndSortWithinPartitions(
            numPartitions=plan["reduce_tasks"], partitionFunc=hadoop_partition_hash, keyfunc=lambda k: k
        )
        out = shuffled.mapPartitionsWithIndex(reduce_partition)
    out.saveAsTextFile(plan["datasets"][job["output"]])
    return map_tasks


def is_local_path(where):
    """A path or file:// URI this process opens itself; anything else (hdfs://, s3://, gs://, …) is
    read and written through Spark's Hadoop file systems."""
    return where.startswith("file:") or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", where) is None


def local_path(where):
    return urllib.parse.urlparse(where).path if where.startswith("file:") else where


def hadoop_path(sc, uri):
    path = sc._jvm.org.apache.hadoop.fs.Path(uri)
    return path.getFileSystem(sc._jsc.hadoopConfiguration()), path


def read_text(sc, where):
    if is_local_path(where):
        with open(local_path(where), encoding="utf-8") as f:
            return f.read()
    fs, path = hadoop_path(sc, where)
    stream = fs.open(path)
    try:
        return bytes(sc._jvm.org.apache.commons.io.IOUtils.toByteArray(stream)).decode("utf-8")
    finally:
        stream.close()


def write_text(sc, where, text):
    if is_local_path(where):
        with open(local_path(where), "w", encoding="utf-8") as f:
            f.write(text)
        return
    fs, path = hadoop_path(sc, where)
    out = fs.create(path, True)
    try:
        out.write(bytearray(text.encode("utf-8")))
    finally:
        out.close()


def main(plan_where):
    # Started with `python driver.py PLAN` the plan names the master and the settings; started by
    # spark-submit they are on its command line (SparkConf reads them) and the plan may be on the
    # cluster's file system, read once the context exists.
    plan = json.loads(read_text(None, plan_where)) if is_local_path(plan_where) else None
    conf = SparkConf()
    if plan is not None and "master" in plan:
        conf.setAppName(plan["app_name"]).setMaster(plan["master"])
        for k, v in plan["conf"].items():
            conf.set(k, v)
    result = {"ok": False}
    sc = SparkContext(conf=conf)
    try:
        if plan is None:
            plan = json.loads(read_text(sc, plan_where))
        for uri in plan.get("files", []):
            sc.addFile(uri)
        acc = sc.accumulator({}, LastWins())
        side_added = set()
        jobs = []
        for j, job in enumerate(plan["jobs"]):
            for d in job["side"]:
                if d not in side_added:
                    sc.addFile(plan["datasets"][d], recursive=True)
                    side_added.add(d)
            t0 = time.monotonic()
            try:
                map_tasks = run_job(sc, plan, j, job, acc)
            except Exception as e:  # noqa: BLE001 - the job's failure is the result
                text = str(e)
                found = re.findall(FAILED + r" code=(\d+) ([^\n]*)", text)
                result = {"ok": False, "job": job["name"], "error": text.strip().split("\n")[0][:500]}
                if found:
                    result["exit_code"] = int(found[-1][0])
                    result["task_line"] = found[-1][1]
                return 1
            jobs.append(
                {
                    "name": job["name"],
                    "map_tasks": map_tasks,
                    "reduce_tasks": plan["reduce_tasks"] if job["reducer"] else 0,
                    "runtime_s": round(time.monotonic() - t0, 3),
                }
            )
        counters = {}
        for c in acc.value.values():
            add_counters(counters, c)
        result = {"ok": True, "counters": counters, "jobs": jobs}
        return 0
    finally:
        if plan is not None:
            write_text(sc, plan["result"], json.dumps(result))
        # Started by `python driver.py`, the JVM is this process's child (spark-submit's own launch has none).
        gateway_proc = getattr(sc._gateway, "proc", None)
        sc.stop()
        end_gateway(gateway_proc)


def end_gateway(proc):
    """Waits for the JVM PySpark started: it exits when its stdin closes, and waiting for it makes
    its CPU (and its reaped Python workers' and their task processes') this process's children's,
    which the backend counts. Left alone it outlives the driver, uncounted."""
    if proc is None:
        return
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
