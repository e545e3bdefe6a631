"""The full-shingle ground truth as a plain scipy sparse-matrix computation, for scripts/bench-ground-truth.ts.

    python3 scripts/scipy_ground_truth.py TEXTS.jsonl PAIRS.txt [MIN_SCORE]

TEXTS.jsonl has one JSON string a line: a document's normalized text (ndd-bench's normalization,
so that both sides cut the same shingles). The shingles are the ground truth's: 64 UTF-16 code
units starting at each word (as JavaScript counts), a text shorter than that one shingle, none for
an empty text; each document is the set of its shingles. Then, as one would write it with scipy:
a document x shingle 0/1 CSR matrix X, the intersections X @ X.T, and for every pair a < b that
shares a shingle its Jaccard |A n B| / (|A| + |B| - |A n B|). PAIRS.txt gets "a b intersection
union" for every pair at or above MIN_SCORE (default 0.1, the quickstart's min_score; exact
integers, so that the check does not depend on how a ratio is printed); stdout gets one JSON line
of counts and timings.
"""
import json
import sys
import time

t_start = time.perf_counter()
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

texts_path, pairs_path = sys.argv[1], sys.argv[2]
min_score = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
N = 64


def shingles(text):
    """The char-64 shingles at word starts of a normalized text (words separated by single spaces)."""
    if not text:
        return set()
    units = len(text.encode("utf-16-le")) // 2
    if units != len(text):
        # Characters outside the BMP: JavaScript counts them as two units; cut on UTF-16 bytes.
        s = text.encode("utf-16-le")
        if units < N:
            return {s}
        out = set()
        i = 0
        while i + N <= units:
            out.add(s[2 * i : 2 * (i + N)])
            j = s.find(b" \x00", 2 * i)
            while j >= 0 and j % 2 == 1:
                j = s.find(b" \x00", j + 1)
            if j < 0:
                break
            i = j // 2 + 1
        return out
    if units < N:
        return {text}
    out = set()
    i = 0
    while i + N <= units:
        out.add(text[i : i + N])
        j = text.find(" ", i)
        if j < 0:
            break
        i = j + 1
    return out


with open(texts_path, encoding="utf-8") as f:
    texts = [json.loads(line) for line in f if line.strip()]
vocabulary = {}
rows = []
cols = []
for d, text in enumerate(texts):
    for s in shingles(text):
        cols.append(vocabulary.setdefault(s, len(vocabulary)))
        rows.append(d)
t_shingled = time.perf_counter()

X = sp.csr_matrix(
    (np.ones(len(rows), dtype=np.int32), (np.asarray(rows, dtype=np.int32), np.asarray(cols, dtype=np.int64))),
    shape=(len(texts), len(vocabulary)),
)
sizes = np.asarray(X.sum(axis=1)).ravel().astype(np.int64)
common = sp.triu(X @ X.T, k=1).tocoo()
a, b, inter = common.row, common.col, common.data.astype(np.int64)
union = sizes[a] + sizes[b] - inter
# The ratio as a float64, compared as ndd-bench compares it (not inter >= min_score * union, which
# rounds differently at the boundary, e.g. 3 / 30).
keep = inter / union >= min_score
order = np.lexsort((b[keep], a[keep]))
t_joined = time.perf_counter()

with open(pairs_path, "w") as f:
    for i, j, n, u in zip(a[keep][order], b[keep][order], inter[keep][order], union[keep][order]):
        f.write(f"{i} {j} {n} {u}\n")

print(
    json.dumps(
        {
            "documents": len(texts),
            "shingles": len(rows),
            "distinct_shingles": len(vocabulary),
            "sharing_pairs": int(len(a)),
            "pairs": int(keep.sum()),
            "shingle_s": t_shingled - t_start,
            "join_s": t_joined - t_shingled,
            "cpu_s": time.process_time(),
        }
    )
)
