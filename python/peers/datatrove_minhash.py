"""datatrove's MinHash deduplication stages as an ndd-bench external detector (configs/peers.yaml).

    python datatrove_minhash.py --corpus C.jsonl --output CLUSTERS.csv [--seed 1]
        [--n_grams 5] [--num_buckets 14] [--hashes_per_bucket 8]

datatrove's own four stages, run by its LocalPipelineExecutor in a folder of their own: stage 1
`MinhashDedupSignature` (its text normalization, word n-grams, 64-bit SHA-1 hashes, `seed`),
stage 2 `MinhashDedupBuckets` (one task a bucket), stage 3 `MinhashDedupCluster` with
`save_cluster_id=True` (its union-find of the bucket matches), stage 4 `MinhashDedupFilter` with
`load_cluster_ids=True`, which gives each document its `minhash_cluster_id` (−1: in no cluster).
What it decides is the clusters, not pairs: every document with a cluster is written as
`doc,cluster` (`output: clusters`), and the harness scores every pair inside a cluster.

Words are cut by datatrove's own tokenizer for English, its default (`language="eng"`): its
`SpaCyTokenizer`, spaCy's blank English pipeline (no trained model to download), installed from
PyPI with the peers' set. It splits ndd-bench's normalized text (letters and digits, single
spaces) at its spaces and, by spaCy's English exceptions, some words further ("dont" → "do",
"nt"; "cannot" → "can", "not").
"""
import argparse
import csv
import os
import shutil
import sys
import tempfile

from datatrove.data import Document
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.dedup.minhash import (
    MinhashConfig,
    MinhashDedupBuckets,
    MinhashDedupCluster,
    MinhashDedupFilter,
    MinhashDedupSignature,
)
from datatrove.utils.hashing import HashConfig

from ndd_input import read_corpus


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--corpus", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n_grams", type=int, default=5)
    p.add_argument("--num_buckets", type=int, default=14)
    p.add_argument("--hashes_per_bucket", type=int, default=8)
    a = p.parse_args()

    ids, texts = read_corpus(a.corpus)
    config = MinhashConfig(
        n_grams=a.n_grams,
        num_buckets=a.num_buckets,
        hashes_per_bucket=a.hashes_per_bucket,
        seed=a.seed,
        hash_config=HashConfig(precision=64),
    )
    work = tempfile.mkdtemp(prefix="datatrove-", dir=os.getcwd())
    try:
        docs = lambda: [Document(text=t, id=str(i)) for i, t in enumerate(texts)]  # noqa: E731
        folder = lambda name: os.path.join(work, name)  # noqa: E731
        run = lambda pipeline, tasks, name: LocalPipelineExecutor(  # noqa: E731
            pipeline=pipeline, tasks=tasks, workers=1, logging_dir=folder(f"logs-{name}")
        ).run()
        run([docs(), MinhashDedupSignature(output_folder=folder("signatures"), config=config)], 1, "signatures")
        run([MinhashDedupBuckets(input_folder=folder("signatures"), output_folder=folder("buckets"), config=config)], a.num_buckets, "buckets")
        run([MinhashDedupCluster(input_folder=folder("buckets"), output_folder=folder("remove"), config=config, save_cluster_id=True)], 1, "clusters")
        clusters = {}

        def collect(data, rank=0, world_size=1):
            for doc in data:
                clusters[int(doc.id)] = doc.metadata.get("minhash_cluster_id", -1)
                yield doc

        # The filter yields the documents it keeps and hands the ones it removes to its exclusion
        # writer: the cluster ids are read from both (the kept ones by `collect`, the removed ones
        # by `record`).
        def record(doc):
            clusters[int(doc.id)] = doc.metadata.get("minhash_cluster_id", -1)

        run([docs(), MinhashDedupFilter(input_folder=folder("remove"), load_cluster_ids=True, exclusion_writer=Collector(record)), collect], 1, "filter")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    with open(a.output, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["doc", "cluster"])
        for i in sorted(clusters):
            if clusters[i] != -1:
                w.writerow([ids[i], clusters[i]])
    n = sum(1 for c in clusters.values() if c != -1)
    print(f"datatrove: {len(ids)} documents, {n} in {len({c for c in clusters.values() if c != -1})} clusters", file=sys.stderr)


class Collector:
    """Stands in for the filter's exclusion writer: hands each removed document to `record`
    (a function: the executor copies its steps, and a copy of a function is the function)."""

    def __init__(self, record):
        self.record = record

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def write(self, doc, rank=0):
        self.record(doc)


if __name__ == "__main__":
    main()
