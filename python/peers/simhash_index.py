"""The `simhash` package's Simhash and SimhashIndex as an ndd-bench external detector
(configs/peers.yaml).

    python simhash_index.py --corpus C.jsonl --output PAIRS.csv [--k 3] [--f 64]

Each document's fingerprint is the package's `Simhash(text, f=f)`: its own features (its
tokenizer: the lower-cased word characters in sliding windows of 4), each counted as often as it
occurs. They are handed to `Simhash` as the list of features its tokenizer gives rather than as
the text: the same sums, bit for bit, but past simhash 2.1.2's bug under numpy 2, where
`Simhash(text)` overflows a uint8 for a feature occurring more than 50 times (its
`large_weight_cutoff` path: `OverflowError: Python integer 331 out of bounds for uint8` on the
bundled mail). The index is
`SimhashIndex([(index, simhash)…], f=f, k=k)`, and each document's `get_near_dups` gives the
documents within Hamming distance k. A pair is scored 1 − d/f, as the built-in simhash scores
(a similarity on another scale than the resemblance: `score: other`).
"""
import argparse
import sys

from simhash import Simhash, SimhashIndex

from ndd_input import read_corpus, write_pairs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--corpus", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--seed")
    p.add_argument("--k", type=int, default=3)
    p.add_argument("--f", type=int, default=64)
    a = p.parse_args()

    ids, texts = read_corpus(a.corpus)
    tokenizer = Simhash(0, f=a.f)
    hashes = [Simhash(tokenizer._tokenize(t), f=a.f) for t in texts]
    index = SimhashIndex([(str(i), h) for i, h in enumerate(hashes)], f=a.f, k=a.k)
    pairs = []
    for i, h in enumerate(hashes):
        for j in map(int, index.get_near_dups(h)):
            if j > i:
                pairs.append((i, j, 1 - h.distance(hashes[j]) / a.f))
    write_pairs(a.output, ids, sorted(pairs))
    print(f"simhash: {len(ids)} documents, {len(pairs)} pairs within distance {a.k}", file=sys.stderr)


if __name__ == "__main__":
    main()
