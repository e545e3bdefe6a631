/**
 * The simhash wrapper (python/peers/simhash_index.py) run by the harness gives the pairs and
 * distances of the `simhash` package's SimhashIndex called directly.
 */
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';
import { PEERS, peersPython, pythonJson, runPeer } from './peers-setup.ts';

const DIRECT = `
import json, sys
from simhash import Simhash, SimhashIndex
inp = json.load(sys.stdin)
hs = {d: Simhash(t) for d, t in zip(inp["ids"], inp["texts"])}
index = SimhashIndex(list(hs.items()), k=inp["k"])
out = set()
for d, h in hs.items():
    for e in index.get_near_dups(h):
        if e != d:
            out.add((min(d, e), max(d, e), h.distance(hs[e])))
print(json.dumps(sorted(out)))
`;

const setup = peersPython();

describe.skipIf(skipsWithout(setup.found, 'the simhash wrapper test', setup.found ? '' : setup.reason))('the simhash package\'s index through the harness', () => {
  it('gives the pairs and distances of SimhashIndex called directly', async () => {
    requireTool(setup.found, 'the simhash wrapper test', setup.found ? '' : setup.reason);
    const python = setup.found ? setup.python : '';
    const docs = smallCorpus();
    const direct = pythonJson(python, DIRECT, { k: 6, ids: docs.ids, texts: Array.from(docs.texts).map(normalize) }) as [string, string, number][];
    const { pairs } = await runPeer(
      python,
      `      program: ${PEERS}simhash_index.py
      args: { k: 6 }
      score: other`,
    );
    const key = (a: string, b: string): string => (a < b ? `${a} ${b}` : `${b} ${a}`);
    expect(direct.length).toBeGreaterThan(3);
    expect(new Map(pairs.map(([a, b, s]) => [key(a as string, b as string), Number(s)]))).toEqual(new Map(direct.map(([a, b, d]) => [key(a, b), 1 - d / 64])));
  });
});
