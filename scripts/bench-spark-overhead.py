"""Where a Spark application's time goes on one machine, without the harness: SparkContext start,
a no-op job that starts its Python workers, the same job reusing them, a job whose tasks each
start `node -e 0`, a job with a shuffle, stop (docs/performance.md, "The quickstart on Spark").

    SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=.venv/spark/bin/python .venv/spark/bin/python scripts/bench-spark-overhead.py "$(command -v node)"
"""
import subprocess
import sys
import time

NODE = sys.argv[1]
t0 = time.monotonic()
from pyspark import SparkConf, SparkContext  # noqa: E402 - its import is part of the start-up measured

conf = (
    SparkConf()
    .setMaster("local[2]")
    .setAppName("overhead")
    .set("spark.ui.enabled", "false")
    .set("spark.ui.showConsoleProgress", "false")
    .set("spark.python.use.daemon", "false")
    .set("spark.python.worker.reuse", "true")
    .set("spark.log.level", "WARN")
)
sc = SparkContext(conf=conf)
t1 = time.monotonic()


def count(_, it):
    yield sum(1 for _ in it)


def node(_, it):
    yield subprocess.run([NODE, "-e", "0"], capture_output=True).returncode


sc.parallelize(range(1000), 2).mapPartitionsWithIndex(count).collect()
t2 = time.monotonic()
sc.parallelize(range(1000), 2).mapPartitionsWithIndex(count).collect()
t3 = time.monotonic()
sc.parallelize(range(4), 2).mapPartitionsWithIndex(node).collect()
t4 = time.monotonic()
sc.parallelize(range(1000), 2).map(lambda x: (x % 7, x)).repartitionAndSortWithinPartitions(2).count()
t5 = time.monotonic()
sc.stop()
t6 = time.monotonic()
print(
    f"context start {t1 - t0:.2f} s; first job (python workers start) {t2 - t1:.2f} s; second job (workers reused) {t3 - t2:.2f} s; "
    f"job starting node in 2 tasks {t4 - t3:.2f} s; shuffle job {t5 - t4:.2f} s; stop {t6 - t5:.2f} s"
)
