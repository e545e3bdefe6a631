"""datasketch's MinHash + MinHashLSH over the shingles ndd-bench uses, for `npm run bench:ci`.

    .venv/peers/bin/python scripts/datasketch_minhash_lsh.py TEXTS.jsonl PAIRS.txt [NUM_PERM] [THRESHOLD]

datasketch, numpy and scipy are the PyPI releases pinned in python/requirements-peers.txt, in the
project's environment (`npm run peers:install`). TEXTS.jsonl has one JSON string a
line: a document's normalized text (ndd-bench's normalization, so that both sides cut the same
shingles). The shingles are ndd-bench's default: 64 UTF-16 code units starting at each word, a
text shorter than that one shingle, each document a set. The usual datasketch pipeline follows:
MinHash.bulk with the default SHA-1 hash, a MinHashLSH for the threshold (datasketch chooses its
bands and rows), every document inserted, then queried, each candidate verified by its estimated
Jaccard. PAIRS.txt gets "a b estimate" for every pair a < b at or above the threshold; stdout
gets one JSON line of counts and timings.
"""
import json
import os
import sys
import time

t_start = time.perf_counter()
from datasketch import MinHash  # noqa: E402

# The shingles the peers' wrappers cut (python/peers/ndd_input.py) and the wrapper's LSH pass: one definition of each.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "peers"))
from ndd_input import shingles  # noqa: E402
from datasketch_minhash_lsh import lsh_pairs  # noqa: E402

texts_path, pairs_path = sys.argv[1], sys.argv[2]
num_perm = int(sys.argv[3]) if len(sys.argv) > 3 else 128
threshold = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
with open(texts_path, encoding="utf-8") as f:
    texts = [json.loads(line) for line in f if line.strip()]
sets = [shingles(t) for t in texts]
t_shingled = time.perf_counter()

minhashes = MinHash.bulk(sets, num_perm=num_perm)
t_hashed = time.perf_counter()

lsh, pairs, candidates = lsh_pairs(minhashes, sets, threshold=threshold, num_perm=num_perm)
t_lsh = time.perf_counter()

with open(pairs_path, "w") as f:
    for i, j, s in pairs:
        f.write(f"{i} {j} {s}\n")

print(
    json.dumps(
        {
            "documents": len(texts),
            "shingles": sum(len(s) for s in sets),
            "bands": lsh.b,
            "rows": lsh.r,
            "candidates": candidates,
            "pairs": len(pairs),
            "shingle_s": t_shingled - t_start,
            "minhash_s": t_hashed - t_shingled,
            "lsh_s": t_lsh - t_hashed,
            "cpu_s": time.process_time(),  # since the process started
        }
    )
)
