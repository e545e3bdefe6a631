"""datasketch's MinHash + MinHashLSH as an ndd-bench external detector (configs/peers.yaml).

    python datasketch_minhash_lsh.py --corpus C.jsonl --output PAIRS.csv [--seed 1]
        [--num_perm 128] [--threshold 0.5] [--shingle 64] [--verify estimate|none]

The usual datasketch pipeline over ndd-bench's shingles (ndd_input.py): MinHash.generator (the
lazy MinHash.bulk) with the default SHA-1 hash and the given seed, a MinHashLSH for the threshold (datasketch chooses its bands
and rows), every document with a shingle inserted, then each queried; each candidate pair is
verified by its estimated Jaccard (`--verify estimate`: pairs at or above the threshold, scored
by the estimate) or kept as it is (`--verify none`: score 1).
"""
import argparse
import sys

from datasketch import MinHash, MinHashLSH

from ndd_input import read_corpus, shingles, write_pairs


def minhashes_of(texts, shingle, num_perm, seed):
    """(MinHash of each text's shingle set, number of shingles of each): the sets are hashed as they
    are cut (datasketch's MinHash.generator, the lazy form of MinHash.bulk, same values) and not
    kept, so that a million documents need their signatures only, not their sets."""
    sizes = []

    def sets():
        for t in texts:
            s = shingles(t, shingle)
            sizes.append(len(s))
            yield s

    return list(MinHash.generator(sets(), num_perm=num_perm, seed=seed)), sizes


def lsh_pairs(minhashes, sizes, threshold, num_perm, verify="estimate"):
    """The LSH index over the documents with a shingle (sizes[i] > 0), each queried: (index, pairs (i, j, score) with i < j, candidates)."""
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    with lsh.insertion_session() as session:
        for i, m in enumerate(minhashes):
            if sizes[i]:
                session.insert(i, m)
    pairs = []
    candidates = 0
    for i, m in enumerate(minhashes):
        if not sizes[i]:
            continue
        for j in lsh.query(m):
            if j <= i:
                continue
            candidates += 1
            if verify == "none":
                pairs.append((i, j, 1.0))
            else:
                score = m.jaccard(minhashes[j])
                if score >= threshold:
                    pairs.append((i, j, score))
    return lsh, pairs, candidates


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--corpus", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num_perm", type=int, default=128)
    p.add_argument("--threshold", type=float, default=0.5)
    p.add_argument("--shingle", type=int, default=64)
    p.add_argument("--verify", choices=["estimate", "none"], default="estimate")
    a = p.parse_args()

    ids, texts = read_corpus(a.corpus)
    minhashes, sizes = minhashes_of(texts, a.shingle, a.num_perm, a.seed)
    lsh, pairs, candidates = lsh_pairs(minhashes, sizes, threshold=a.threshold, num_perm=a.num_perm, verify=a.verify)
    write_pairs(a.output, ids, pairs, scored=a.verify == "estimate")
    print(f"datasketch: {len(ids)} documents, b={lsh.b} r={lsh.r}, {candidates} candidates, {len(pairs)} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
