"""text-dedup's MinHash or SimHash deduplication as an ndd-bench external detector (configs/peers.yaml).

    python textdedup_clusters.py --corpus C.jsonl --output CLUSTERS.csv --algorithm minhash|simhash
        [--seed S] [text-dedup's own options: --num_perm 128 --threshold 0.5 --ngram 5 --num_proc 1 …]

Runs text-dedup's own command, `python -m text_dedup.minhash` or `python -m text_dedup.simhash`
(its click entry point `main`, called in this process), whole: it loads the corpus with
`datasets`, fingerprints every document (its `embed_func`: word n-grams with SHA-1 or xxh3 and
its universal permutations for MinHash, character n-grams with xxh3 for SimHash), bands or
block-permutes the fingerprints (its LSH tables; SimHash's Hamming check within `--bit_diff`),
joins the matches in its `UnionFind` and writes the deduplicated dataset. Its `--debug` flag
makes it also dump that union-find by document id (`uf.pkl`); the wrapper reads the dump and
writes each document in a cluster of two or more as `doc,cluster` (`output: clusters`; the
cluster is named by its root document). Every option other than --corpus, --output, --algorithm
and --seed goes to text-dedup's command as given, which checks it.

What the wrapper adds or leaves out, and why:
- `--seed` is handed to MinHash's command, which accepts it but does not use it: its
  permutations come from a module-level `numpy.random.RandomState(42)`. SimHash's has no seed.
- SimHash: a document under 5 characters is not handed to text-dedup (so in no cluster): its
  character n-grams are cut by text-dedup's `ngrams`, whose default `min_length=5` gives none
  for a shorter text, and its `compute` then fails on the empty list (0.4.0 stops the run with
  `AssertionError: 64, 1, 64`).
- MinHash drops the documents with fewer than `--min_length` words (its default 5) before
  fingerprinting, and leaves them out of its output; they are in no cluster here either.
- Everything text-dedup writes (the `datasets` cache, the deduplicated dataset, the dump) goes
  to a folder under the working directory the harness gives the command, removed at the end;
  `datasets` runs offline and without progress bars.
"""
import argparse
import csv
import json
import os
import pickle  # nosec: reads only the union-find text-dedup wrote a moment ago in our own folder
import shutil
import sys
import tempfile

from ndd_input import read_corpus

# text-dedup's SimHash fails on a text with fewer characters (see above).
SIMHASH_MIN_CHARS = 5


def main():
    # No abbreviations: every option this parser does not know is text-dedup's, passed on whole.
    p = argparse.ArgumentParser(allow_abbrev=False)
    p.add_argument("--corpus", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--algorithm", choices=["minhash", "simhash"], required=True)
    p.add_argument("--seed")
    a, options = p.parse_known_args()

    ids, texts = read_corpus(a.corpus)
    given = [i for i, t in enumerate(texts) if a.algorithm == "minhash" or len(t) >= SIMHASH_MIN_CHARS]
    work = tempfile.mkdtemp(prefix="textdedup-", dir=os.getcwd())
    try:
        clusters = run_text_dedup(a.algorithm, [ids[i] for i in given], [texts[i] for i in given], options, a.seed, work) if given else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)

    with open(a.output, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["doc", "cluster"])
        for doc in ids:
            if doc in clusters:
                w.writerow([doc, clusters[doc]])
    print(
        f"text-dedup {a.algorithm}: {len(ids)} documents, {len(given)} handed over, "
        f"{len(clusters)} in {len(set(clusters.values()))} clusters",
        file=sys.stderr,
    )


def run_text_dedup(algorithm, ids, texts, options, seed, work):
    """text-dedup's command on these documents; {id: cluster root id} for each document in a cluster of 2+."""
    os.environ.update(
        HF_HOME=os.path.join(work, "hf"),
        HF_DATASETS_OFFLINE="1",
        HF_HUB_OFFLINE="1",
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
        TQDM_DISABLE="1",
    )
    # Imported here: `datasets` reads the variables above when it is first imported.
    import click

    if algorithm == "minhash":
        from text_dedup.minhash import main as command
    else:
        from text_dedup.simhash import main as command

    corpus = os.path.join(work, "corpus.jsonl")
    with open(corpus, "w", encoding="utf-8") as f:
        for doc, text in zip(ids, texts):
            f.write(json.dumps({"id": doc, "text": text}, ensure_ascii=False) + "\n")
    out = os.path.join(work, "out")
    args = ["--path", "json", "--data_files", corpus, "--split", "train", "--cache_dir", os.path.join(work, "cache")]
    args += ["--output", out, "--column", "text", "--idx_column", "id", "--debug"]
    if algorithm == "minhash" and seed is not None:
        args += ["--seed", seed]
    try:
        command.main(args=args + options, standalone_mode=False)
    except click.ClickException as e:
        sys.exit(f"text-dedup {algorithm}: {e.format_message()}")
    with open(os.path.join(out, "uf.pkl"), "rb") as f:
        uf = pickle.load(f)  # nosec
    roots = {doc: uf.find(doc) for doc in list(uf.parent)}
    sizes = {}
    for root in roots.values():
        sizes[root] = sizes.get(root, 0) + 1
    return {doc: root for doc, root in roots.items() if sizes[root] > 1}


if __name__ == "__main__":
    main()
