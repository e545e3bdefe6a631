"""Runs one command whole and writes what it cost, for the benchmarks that compare whole processes.

    python3 scripts/measure_process.py FIGURES.json COMMAND [ARG ...]

FIGURES.json gets {"wall_s", "cpu_s", "peak_rss_mb", "exit"}: wall-clock seconds from start to exit,
user + system CPU seconds of the command and every process it waited for, and the peak resident
memory of its largest process (getrusage(RUSAGE_CHILDREN).ru_maxrss, which Node cannot read of a
child). The command's stdout and stderr pass through; the exit status is the command's.
"""
import json
import resource
import subprocess
import sys
import time

figures, command = sys.argv[1], sys.argv[2:]
t0 = time.perf_counter()
status = subprocess.run(command).returncode
wall = time.perf_counter() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(figures, "w") as f:
    json.dump({"wall_s": wall, "cpu_s": r.ru_utime + r.ru_stime, "peak_rss_mb": r.ru_maxrss / 1024, "exit": status}, f)
sys.exit(status)
