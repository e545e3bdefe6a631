/**
 * The kernel's token numbering against a plain Map over the same fingerprints: ids in order of
 * hash partition, then first occurrence (document, then place among its distinct fingerprints),
 * document frequencies, and ranks in ascending (frequency, id), however the corpus is sliced and
 * on however many threads.
 */
import { describe, expect, it } from 'vitest';
import { partitionOfHex } from '../../../algorithms/ppjoin/jobs.ts';
import { numberTokens, rankTokens, rankTokensHere, signatures, signaturesHere, tokenizeSlice } from '../../../algorithms/ppjoin/tokens.ts';
import { fingerprintHex, shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import type { FingerprintKind } from '../../../algorithms/text/params.ts';
import { nearDuplicateCorpus } from './support.ts';

const texts = [...nearDuplicateCorpus(5, 25), '', 'a b c a b c', ...nearDuplicateCorpus(6, 10)];
const shingle = { unit: 'word', size: 2 } as const;

function reference(kind: FingerprintKind): { ids: number[][]; df: number[] } {
  // first occurrence order, then a stable sort by partition
  const first = new Map<string, number>();
  const docsHex = texts.map((t) => {
    const fps = shingleFingerprints(normalize(t), shingle, kind);
    const mine = new Set<string>();
    for (let i = 0; i < fps.count; i++) mine.add(fingerprintHex(fps.data, i, fps.width));
    for (const hex of mine) if (!first.has(hex)) first.set(hex, first.size);
    return [...mine];
  });
  const order = [...first.keys()].sort((x, y) => partitionOfHex(x) - partitionOfHex(y) || (first.get(x) as number) - (first.get(y) as number));
  const idOf = new Map(order.map((hex, id) => [hex, id]));
  const df: number[] = order.map(() => 0);
  const ids = docsHex.map((hexes) =>
    hexes.map((hex) => {
      const id = idOf.get(hex) as number;
      df[id] = (df[id] as number) + 1;
      return id;
    }),
  );
  return { ids, df };
}

/** A worker call made in line: the module's export on the payload. */
async function inline<T>(url: string, name: string, payload: unknown): Promise<T> {
  const m = (await import(url)) as Record<string, (p: unknown) => T>;
  return (m[name] as (p: unknown) => T)(payload);
}

describe('PPJoin token numbering', () => {
  it.each(['rabin64', 'md5'] as const)('numbers %s fingerprints in (partition, first occurrence) order, over any slicing', async (kind) => {
    const expected = reference(kind);
    for (const [cuts, threads] of [[[texts.length], 1], [[10, texts.length], 2], [[1, 26, 27, 30, texts.length], 3]] as const) {
      let from = 0;
      const slices = cuts.map((to) => {
        const s = tokenizeSlice({ texts: texts.slice(from, to), shingle, kind });
        from = to;
        return s;
      });
      const t = await numberTokens(slices, threads, inline);
      const ids = texts.map((_, d) => [...t.ids.subarray(t.docStart[d], t.docStart[d + 1])]);
      expect(ids).toEqual(expected.ids);
      expect([...t.df]).toEqual(expected.df);
      // ranks: ascending document frequency, ties in id (first-occurrence) order
      const order = expected.df.map((_, id) => id).sort((a, b) => (expected.df[a] as number) - (expected.df[b] as number) || a - b);
      const rankOf = new Map(order.map((id, r) => [id, r]));
      const ranked = rankTokensHere(t);
      const ranks = texts.map((_, d) => [...ranked.ranks.subarray(ranked.docStart[d], ranked.docStart[d + 1])]);
      expect(ranks).toEqual(expected.ids.map((doc) => doc.map((id) => rankOf.get(id) as number).sort((a, b) => a - b)));
      // split across threads: the same ranks and signatures
      expect((await rankTokens(t, threads, inline)).ranks).toEqual(ranked.ranks);
      expect(await signatures(t, 4, threads, inline)).toEqual(signaturesHere(t, 4));
    }
  });
});
