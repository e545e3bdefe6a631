# Independent simhash reference (thesis ch. 3): bag of words, tf-idf, lookup3 64-bit, sign of sums.
import json, math, sys
from lookup3 import hashlittle2
docs = [
  "the senate passed the medicare drug plan after democrats won the vote",
  "the senate passed the medicare drug plan after the democrats won a vote",
  "health insurance costs rose again this year for most families",
  "democrats will negotiate drug prices for medicare the senate said",
  "a cat sat on the mat and the cat slept",
  "the the the the",
]
def h64(w, pc, pb):
    c, b = hashlittle2(w.encode('utf-16-le'), pc, pb)
    return (c << 32) | b
def fingerprint(doc, df, N, pc, pb, idf='inverse', position='none'):
    words = doc.split(' ')
    L = len(words)
    order, raw = [], {}
    for x, w in enumerate(words):
        f = 1.0
        if position == 'cosine': f = math.cos(2 * math.pi * x / L) + 1
        if position == 'log': f = math.log(x + math.e) / (x + math.e)
        if w not in raw: order.append(w); raw[w] = 0.0
        raw[w] += f
    sums = [0.0] * 64
    for w in order:
        wt = raw[w] * (1.0 / df[w] if idf == 'inverse' else max(0.0, math.log(N / df[w])))
        if not wt > 0: continue
        h = h64(w, pc, pb)
        for j in range(64):
            sums[j] += wt if (h >> (63 - j)) & 1 else -wt
    if all(s == 0 for s in sums): return None
    v = 0
    for j in range(64): v = (v << 1) | (1 if sums[j] > 0 else 0)
    return '%016x' % v
df = {}
for d in docs:
    for w in set(d.split(' ')): df[w] = df.get(w, 0) + 1
out = {}
for name, kw, seeds in [('inverse', {}, (0, 0)), ('log', {'idf': 'log'}, (0, 0)), ('cosine', {'position': 'cosine'}, (0, 0)),
                        ('position-log', {'position': 'log'}, (0, 0)), ('seeded', {}, (12345, 0))]:
    out[name] = [fingerprint(d, df, len(docs), seeds[0], seeds[1], **kw) for d in docs]
print(json.dumps(out, indent=1))
