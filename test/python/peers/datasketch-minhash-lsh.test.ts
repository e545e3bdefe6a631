/**
 * The datasketch wrapper (python/peers/datasketch_minhash_lsh.py) run by the harness gives the
 * pairs and estimates datasketch's own API gives when called directly on the same shingles.
 */
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';
import { PEERS, peersPython, pythonJson, runPeer } from './peers-setup.ts';

/** datasketch called directly: BMP text, so shingles are plain slices at word starts (design.md §4.2). */
const DIRECT = `
import json, sys
from datasketch import MinHash, MinHashLSH
inp = json.load(sys.stdin)
n, k, t = inp["shingle"], inp["num_perm"], inp["threshold"]
def sh(text):
    if not text: return set()
    if len(text) < n: return {text.encode("utf-16-le")}
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == " "]
    return {text[s:s + n].encode("utf-16-le") for s in starts if s + n <= len(text)}
ms = []
lsh = MinHashLSH(threshold=t, num_perm=k)
for i, text in enumerate(inp["texts"]):
    m = MinHash(num_perm=k, seed=inp["seed"])
    s = sh(text)
    for x in s: m.update(x)
    ms.append((m, bool(s)))
    if s: lsh.insert(i, m)
out = []
for i, (m, has) in enumerate(ms):
    if not has: continue
    for j in lsh.query(m):
        if j > i:
            e = m.jaccard(ms[j][0])
            if e >= t: out.append([inp["ids"][i], inp["ids"][j], e])
print(json.dumps(out))
`;

const setup = peersPython();

describe.skipIf(skipsWithout(setup.found, 'the datasketch wrapper test', setup.found ? '' : setup.reason))('datasketch MinHash + MinHashLSH through the harness', () => {
  it('gives the pairs and estimates of datasketch\'s own API called directly', async () => {
    requireTool(setup.found, 'the datasketch wrapper test', setup.found ? '' : setup.reason);
    const python = setup.found ? setup.python : '';
    const docs = smallCorpus();
    const args = { shingle: 16, num_perm: 64, threshold: 0.5, seed: 1 };
    const direct = pythonJson(python, DIRECT, { ...args, ids: docs.ids, texts: Array.from(docs.texts).map(normalize) }) as [string, string, number][];
    const { record, pairs } = await runPeer(
      python,
      `      program: ${PEERS}datasketch_minhash_lsh.py
      args: { num_perm: 64, threshold: 0.5, shingle: 16 }
      score: resemblance
      score_floor: 0.5`,
    );
    const key = (a: string, b: string): string => (a < b ? `${a} ${b}` : `${b} ${a}`);
    const expected = new Map(direct.map(([a, b, e]) => [key(a, b), e]));
    expect(direct.length).toBeGreaterThan(5);
    expect(new Map(pairs.map(([a, b, s]) => [key(a as string, b as string), Number(s)]))).toEqual(expected);
    expect(record.variants[1]?.measures.pairs).toBe(direct.length);
  });
});
