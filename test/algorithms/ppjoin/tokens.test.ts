/**
 * The kernel's token numbering against a plain Map over the same fingerprints: ids in order of
 * first occurrence (document, then place among its distinct fingerprints), document frequencies,
 * and ranks in ascending (frequency, first occurrence), however the corpus is sliced.
 */
import { describe, expect, it } from 'vitest';
import { numberTokens, rankTokens, tokenizeSlice } from '../../../algorithms/ppjoin/tokens.ts';
import { fingerprintHex, shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import type { FingerprintKind } from '../../../algorithms/text/params.ts';
import { nearDuplicateCorpus } from './support.ts';

const texts = [...nearDuplicateCorpus(5, 25), '', 'a b c a b c', ...nearDuplicateCorpus(6, 10)];
const shingle = { unit: 'word', size: 2 } as const;

function reference(kind: FingerprintKind): { ids: number[][]; df: number[] } {
  const idOf = new Map<string, number>();
  const df: number[] = [];
  const ids = texts.map((t) => {
    const fps = shingleFingerprints(normalize(t), shingle, kind);
    const mine: number[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < fps.count; i++) {
      const hex = fingerprintHex(fps.data, i, fps.width);
      if (seen.has(hex)) continue;
      seen.add(hex);
      let id = idOf.get(hex);
      if (id === undefined) idOf.set(hex, (id = idOf.size));
      df[id] = (df[id] ?? 0) + 1;
      mine.push(id);
    }
    return mine;
  });
  return { ids, df };
}

describe('PPJoin token numbering', () => {
  it.each(['rabin64', 'md5'] as const)('numbers %s fingerprints in first-occurrence order, over any slicing', (kind) => {
    const expected = reference(kind);
    for (const cuts of [[texts.length], [10, texts.length], [1, 26, 27, 30, texts.length]]) {
      let from = 0;
      const slices = cuts.map((to) => {
        const s = tokenizeSlice({ texts: texts.slice(from, to), shingle, kind });
        from = to;
        return s;
      });
      const t = numberTokens(slices);
      const ids = texts.map((_, d) => [...t.ids.subarray(t.docStart[d], t.docStart[d + 1])]);
      expect(ids).toEqual(expected.ids);
      expect([...t.df]).toEqual(expected.df);
      // ranks: ascending document frequency, ties in id (first-occurrence) order
      const order = expected.df.map((_, id) => id).sort((a, b) => (expected.df[a] as number) - (expected.df[b] as number) || a - b);
      const rankOf = new Map(order.map((id, r) => [id, r]));
      const ranked = rankTokens(t);
      const ranks = texts.map((_, d) => [...ranked.ranks.subarray(ranked.docStart[d], ranked.docStart[d + 1])]);
      expect(ranks).toEqual(expected.ids.map((doc) => doc.map((id) => rankOf.get(id) as number).sort((a, b) => a - b)));
    }
  });
});
