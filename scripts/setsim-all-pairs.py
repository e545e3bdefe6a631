"""All pairs with Jaccard >= t by SetSimilaritySearch (ekzhu/SetSimilaritySearch, not vendored):
the other side of scripts/bench-setsimilaritysearch.ts. Reads one token set a line (tokens
separated by spaces; an empty line is a document without tokens), writes `a b score` lines by
line number, and prints its timings as JSON.

  PYTHONPATH=<a SetSimilaritySearch checkout> python3 scripts/setsim-all-pairs.py SETS T OUT
"""
import json
import sys
import time

start = time.time()
from SetSimilaritySearch import all_pairs  # noqa: E402

path, threshold, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
imported = time.time()
with open(path) as f:
    lines = [line.split() for line in f.read().split("\n")[:-1]]
# all_pairs numbers the sets it is given; documents without tokens take part in no pair
docs = [i for i, s in enumerate(lines) if s]
sets = [lines[i] for i in docs]
read = time.time()
cpu0 = time.process_time()
pairs = list(all_pairs(sets, similarity_func_name="jaccard", similarity_threshold=threshold))
joined = time.time()
join_cpu = time.process_time() - cpu0
with open(out, "w") as f:
    for x, y, sim in pairs:
        a, b = sorted((docs[x], docs[y]))
        f.write(f"{a} {b} {sim!r}\n")
print(json.dumps({
    "import_s": imported - start,
    "read_s": read - imported,
    "join_s": joined - read,
    "join_cpu_s": join_cpu,
    "process_cpu_s": time.process_time(),
    "pairs": len(pairs),
}))
