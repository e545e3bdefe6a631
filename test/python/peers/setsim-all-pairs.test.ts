/**
 * The SetSimilaritySearch wrapper (python/peers/setsim_all_pairs.py) run by the harness gives
 * the pairs of SetSimilaritySearch's `all_pairs` called directly, and, being an exact join over
 * the ground truth's shingles, the ground truth's pairs at or above its threshold.
 */
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';
import { PEERS, peersPython, pythonJson, runPeer } from './peers-setup.ts';

/** all_pairs called directly over BMP shingles cut here (design.md §4.2). */
const DIRECT = `
import json, sys
from SetSimilaritySearch import all_pairs
inp = json.load(sys.stdin)
n = inp["shingle"]
def sh(text):
    if not text: return set()
    if len(text) < n: return {text}
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == " "]
    return {text[s:s + n] for s in starts if s + n <= len(text)}
sets = [sh(t) for t in inp["texts"]]
docs = [i for i, s in enumerate(sets) if s]
out = [[inp["ids"][docs[x]], inp["ids"][docs[y]], s] for x, y, s in all_pairs([sets[i] for i in docs], similarity_func_name="jaccard", similarity_threshold=inp["threshold"])]
print(json.dumps(out))
`;

const setup = peersPython();

describe.skipIf(skipsWithout(setup.found, 'the SetSimilaritySearch wrapper test', setup.found ? '' : setup.reason))('SetSimilaritySearch all-pairs through the harness', () => {
  it('gives the pairs of all_pairs called directly, and the ground truth\'s at or above t', async () => {
    requireTool(setup.found, 'the SetSimilaritySearch wrapper test', setup.found ? '' : setup.reason);
    const python = setup.found ? setup.python : '';
    const docs = smallCorpus();
    const direct = pythonJson(python, DIRECT, { shingle: 16, threshold: 0.5, ids: docs.ids, texts: Array.from(docs.texts).map(normalize) }) as [string, string, number][];
    const { record, pairs } = await runPeer(
      python,
      `      program: ${PEERS}setsim_all_pairs.py
      args: { threshold: 0.5, shingle: 16 }
      score: resemblance
      score_floor: 0.5`,
    );
    const key = (a: string, b: string): string => (a < b ? `${a} ${b}` : `${b} ${a}`);
    expect(direct.length).toBeGreaterThan(5);
    expect(new Map(pairs.map(([a, b, s]) => [key(a as string, b as string), Number(s)]))).toEqual(new Map(direct.map(([a, b, s]) => [key(a, b), s])));
    // An exact join over the same shingles as the ground truth (char-16 here): no error from 0.5 up.
    expect(record.variants[1]?.measures).toMatchObject({ avg_error: 0, precision_pairs: 1, recall_pairs: 1 });
  });
});
