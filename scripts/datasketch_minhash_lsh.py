"""datasketch's MinHash + MinHashLSH over the shingles ndd-bench uses, for `npm run bench:ci`.

    .venv/peers/bin/python scripts/datasketch_minhash_lsh.py TEXTS.jsonl PAIRS.txt [NUM_PERM] [THRESHOLD]

datasketch, numpy and scipy are the PyPI releases pinned in python/requirements-peers.txt, in the
project's environment (`npm run peers:install`). TEXTS.jsonl has one JSON string a
line: a document's normalized text (ndd-bench's normalization, so that both sides cut the same
shingles), or a corpus line {"id", "text"} as the peers' wrappers read (python/peers/ndd_input.py);
the lines are read as they are hashed, so only the signatures are held (a million documents
fit). The shingles are ndd-bench's default: 64 UTF-16 code units starting at each word, a text
shorter than that one shingle, each document a set. The usual datasketch pipeline follows:
MinHash.generator (the lazy MinHash.bulk) with the default SHA-1 hash, a MinHashLSH for the
threshold (datasketch chooses its bands and rows), every document inserted, then queried, each
candidate verified by its estimated Jaccard. PAIRS.txt gets "a b estimate" for every pair a < b at or above the threshold; stdout
gets one JSON line of counts and timings.
"""
import json
import os
import resource
import sys
import time

t_start = time.perf_counter()

# The shingles the peers' wrappers cut (python/peers/ndd_input.py) and the wrapper's hashing and LSH pass: one definition of each.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "peers"))
from datasketch_minhash_lsh import lsh_pairs, minhashes_of  # noqa: E402

texts_path, pairs_path = sys.argv[1], sys.argv[2]
num_perm = int(sys.argv[3]) if len(sys.argv) > 3 else 128
threshold = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5


def texts():
    """Each line's text, read as it is hashed: a JSON string, or a corpus line {"id", "text"} (ndd_input.py)."""
    with open(texts_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                v = json.loads(line)
                yield v if isinstance(v, str) else v["text"]


minhashes, sizes = minhashes_of(texts(), 64, num_perm, 1)
t_hashed = time.perf_counter()

lsh, pairs, candidates = lsh_pairs(minhashes, sizes, threshold=threshold, num_perm=num_perm)
t_lsh = time.perf_counter()

with open(pairs_path, "w") as f:
    for i, j, s in pairs:
        f.write(f"{i} {j} {s}\n")

print(
    json.dumps(
        {
            "documents": len(minhashes),
            "shingles": sum(sizes),
            "bands": lsh.b,
            "rows": lsh.r,
            "candidates": candidates,
            "pairs": len(pairs),
            "minhash_s": t_hashed - t_start,
            "lsh_s": t_lsh - t_hashed,
            "cpu_s": time.process_time(),  # since the process started
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    )
)
