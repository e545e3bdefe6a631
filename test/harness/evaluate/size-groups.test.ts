import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { countWordsMeanwhile, documentWordCounts } from '../../../harness/evaluate/size-groups.ts';
import type { DocumentSet } from '../../../contract/index.ts';

/** Documents of known word counts: document d has d % 50 words of 10 letters (about 2^16 characters every 240 documents). */
function corpus(n: number): { docs: DocumentSet; words: number[] } {
  const words = Array.from({ length: n }, (_, d) => d % 50);
  const texts = words.map((w, d) => Array.from({ length: w }, (_, i) => `W${String((d * 7 + i) % 1000).padStart(4, '0')}rd,x`).join('  -- '));
  return { docs: { ids: texts.map((_, d) => `d${d}`), texts }, words };
}

describe('countWordsMeanwhile', () => {
  it('counts every document in idle turns: the counts written out by hand', async () => {
    const { docs, words } = corpus(1000);
    countWordsMeanwhile(docs);
    for (let i = 0; i < 20; i++) await nextTurn();
    // The texts blanked: counts that come out right were made in the idle turns.
    (docs.texts as string[]).fill('');
    // each text is "wNNNNrd x" pieces: two words a piece after normalization
    expect(Array.from(documentWordCounts(docs))).toEqual(words.map((w) => 2 * w));
  });

  it('gives the same counts when asked before the first turn and partway', async () => {
    const a = corpus(1000);
    countWordsMeanwhile(a.docs);
    expect(Array.from(documentWordCounts(a.docs))).toEqual(a.words.map((w) => 2 * w));
    const b = corpus(1000);
    countWordsMeanwhile(b.docs);
    await nextTurn();
    expect(Array.from(documentWordCounts(b.docs))).toEqual(b.words.map((w) => 2 * w));
  });

  it('counts about 2^16 characters a turn', async () => {
    const { docs, words } = corpus(1000);
    countWordsMeanwhile(docs);
    await nextTurn();
    (docs.texts as string[]).fill('');
    const got = Array.from(documentWordCounts(docs));
    // the first turn counted a prefix of the documents, the blanked rest count none
    const counted = got.findIndex((c, d) => c !== 2 * (words[d] as number));
    expect(counted).toBeGreaterThan(100);
    expect(counted).toBeLessThan(1000);
    expect(got.slice(counted).every((c) => c === 0)).toBe(true);
  });

  it('stops its turns when the run is interrupted; a later call still counts every document', async () => {
    const { docs, words } = corpus(1000);
    const abort = new AbortController();
    abort.abort();
    countWordsMeanwhile(docs, abort.signal);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(Array.from(documentWordCounts(docs))).toEqual(words.map((w) => 2 * w));
  });
});
