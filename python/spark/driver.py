"""The spark backend's driver: one Spark application runs every job of one variant's plan the way
Hadoop Streaming runs it, with the very job script the Hadoop steps run (`ndd-job.js`).

    python driver.py PLAN.json          (or: spark-submit driver.py PLAN.json)

PLAN.json (written by harness/mapreduce/spark/backend.ts):
    { "app_name", "master", "conf": {k: v}, "node", "files": [URI of ndd-job.js, spec.json, package.json],
      "datasets": {name: URI of its folder}, "map_tasks", "reduce_tasks",
      "jobs": [{"name", "inputs", "output", "side", "combiner", "reducer"}], "result": local path }

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


def main(plan_file):
    with open(plan_file, encoding="utf-8") as f:
        plan = json.load(f)
    conf = SparkConf().setAppName(plan["app_name"]).setMaster(plan["master"])
    for k, v in plan["conf"].items():
        conf.set(k, v)
    result = {"ok": False}
    sc = SparkContext(conf=conf)
    try:
        for uri in plan["files"]:
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
        with open(plan["result"], "w", encoding="utf-8") as f:
            json.dump(result, f)
        sc.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
