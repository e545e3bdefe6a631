"""What every wrapper of python/peers/ shares: reading the corpus ndd-bench writes (JSONL of
{"id", "text"}, the normalized text), cutting ndd-bench's shingles, writing pairs by id.

Shingles are ndd-bench's default (docs/design.md §4.2): a shingle starts at each word's first
character and spans N UTF-16 code units of the normalized text (as JavaScript counts); one that
would run past the end is dropped; a text shorter than N is one shingle; a document is the set
of its shingles, here as UTF-16LE bytes.
"""
import csv
import json

SPACE = b" \x00"


def read_corpus(path):
    """(ids, texts) in the corpus file's order."""
    ids, texts = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                ids.append(d["id"])
                texts.append(d["text"])
    return ids, texts


def word_starts(text):
    starts = []
    i = 0
    for w in text.split(" "):
        if w:
            starts.append(i)
        i += len(w) + 1
    return starts


def shingles(text, n=64):
    """The char-n shingles at word starts, as UTF-16LE bytes."""
    if not text:
        return set()
    s = text.encode("utf-16-le")
    units = len(s) // 2
    if units < n:
        return {s}
    if units == len(text):
        # no character outside the BMP: code points are code units
        return {text[i : i + n].encode("utf-16-le") for i in word_starts(text) if i + n <= units}
    out = set()
    i = 0
    while i + n <= units:
        out.add(s[2 * i : 2 * (i + n)])
        j = s.find(SPACE, 2 * i)
        while j >= 0 and j % 2 == 1:
            j = s.find(SPACE, j + 1)
        if j < 0:
            break
        i = j // 2 + 1
    return out


def write_pairs(path, ids, pairs, scored=True):
    """doc_a,doc_b[,score] by id, for (i, j[, score]) pairs of document indexes."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["doc_a", "doc_b", "score"] if scored else ["doc_a", "doc_b"])
        for p in pairs:
            w.writerow([ids[p[0]], ids[p[1]], repr(float(p[2]))] if scored else [ids[p[0]], ids[p[1]]])
