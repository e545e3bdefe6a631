"""SetSimilaritySearch's all-pairs join as an ndd-bench external detector (configs/peers.yaml).

    python setsim_all_pairs.py --corpus C.jsonl --output PAIRS.csv [--threshold 0.5] [--shingle 64]

Every document is the set of ndd-bench's shingles (ndd_input.py); SetSimilaritySearch's
`all_pairs(sets, similarity_func_name="jaccard", similarity_threshold=t)` (its prefix-filtering
join) gives every pair whose exact Jaccard is at least t, scored by it. Documents without a
shingle take part in no pair.
"""
import argparse
import sys

from SetSimilaritySearch import all_pairs

from ndd_input import read_corpus, shingles, write_pairs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--corpus", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--seed")
    p.add_argument("--threshold", type=float, default=0.5)
    p.add_argument("--shingle", type=int, default=64)
    a = p.parse_args()

    ids, texts = read_corpus(a.corpus)
    sets = [shingles(t, a.shingle) for t in texts]
    # all_pairs numbers the sets it is given: only documents with a shingle, mapped back here.
    docs = [i for i, s in enumerate(sets) if s]
    found = all_pairs([sets[i] for i in docs], similarity_func_name="jaccard", similarity_threshold=a.threshold)
    pairs = [(min(docs[x], docs[y]), max(docs[x], docs[y]), sim) for x, y, sim in found]
    write_pairs(a.output, ids, pairs)
    print(f"SetSimilaritySearch: {len(ids)} documents, {len(pairs)} pairs at Jaccard >= {a.threshold}", file=sys.stderr)


if __name__ == "__main__":
    main()
