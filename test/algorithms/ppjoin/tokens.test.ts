/**
 * The kernel's token ranks against a plain Map over the same fingerprints: each document's tokens
 * as ranks in ascending (document frequency, fingerprint) order, the order the first text job
 * writes; and its signature bitmaps against one built document by document.
 */
import { describe, expect, it } from 'vitest';
import { tokenText } from '../../../algorithms/ppjoin/jobs.ts';
import { addToSignature } from '../../../algorithms/ppjoin/signature.ts';
import { rankTokens, signatures } from '../../../algorithms/ppjoin/tokens.ts';
import { fingerprintSlice, mergeSlices } from '../../../algorithms/text/features.ts';
import { fingerprintHex, shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import type { FingerprintKind } from '../../../algorithms/text/params.ts';
import { nearDuplicateCorpus } from './support.ts';

const texts = [...nearDuplicateCorpus(5, 25), '', 'a b c a b c', ...nearDuplicateCorpus(6, 10)];
const shingle = { unit: 'word', size: 2 } as const;

/** Each document's ranks: its distinct fingerprints as the jobs' token texts, ranked by their byte order. */
function distinctHex(kind: FingerprintKind): string[][] {
  return texts.map((t) => {
    const fps = shingleFingerprints(normalize(t), shingle, kind);
    const mine = new Set<string>();
    for (let i = 0; i < fps.count; i++) mine.add(fingerprintHex(fps.data, i, fps.width));
    return [...mine];
  });
}

function reference(kind: FingerprintKind): number[][] {
  const docs = distinctHex(kind);
  const df = new Map<string, number>();
  for (const d of docs) for (const hex of d) df.set(hex, (df.get(hex) ?? 0) + 1);
  const order = [...df.keys()].map((hex) => tokenText(df.get(hex) as number, hex)).sort();
  const rank = new Map(order.map((text, r) => [text.slice(8), r]));
  return docs.map((d) => d.map((hex) => rank.get(hex) as number).sort((a, b) => a - b));
}

describe('PPJoin token ranks', () => {
  it.each(['rabin64', 'md5'] as const)('rank %s fingerprints by (document frequency, fingerprint) and sign the documents', (kind) => {
    const expected = reference(kind);
    const features = mergeSlices([
      fingerprintSlice({ texts: texts.slice(0, 10), firstDoc: 0, shingle, kind }),
      fingerprintSlice({ texts: texts.slice(10), firstDoc: 10, shingle, kind }),
    ]);
    const ranked = rankTokens(features);
    const ranks = texts.map((_, d) => [...ranked.ranks.subarray(ranked.docStart[d], ranked.docStart[d + 1])]);
    expect(ranks).toEqual(expected);
    // signatures: each document's bitmap built from its own fingerprints' last words
    const words = 4;
    const bitmaps = new Uint32Array(texts.length * words);
    distinctHex(kind).forEach((hexes, d) => {
      for (const hex of hexes) addToSignature(bitmaps, d * words, parseInt(hex.slice(-8), 16), 32 * words);
    });
    expect(signatures(features, words)).toEqual(bitmaps);
  });
});
