/**
 * The kernel's token ranks against a plain Map over the same fingerprints: each document's tokens
 * as ranks in ascending (document frequency, fingerprint) order, the order the first text job
 * writes; and the same ranks and signatures however the documents are split across threads.
 */
import { describe, expect, it } from 'vitest';
import { tokenText } from '../../../algorithms/ppjoin/jobs.ts';
import { rankTokens, rankTokensHere, signatures, signaturesHere } from '../../../algorithms/ppjoin/tokens.ts';
import { fingerprintSlice, mergeSlices } from '../../../algorithms/text/features.ts';
import { fingerprintHex, shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import type { FingerprintKind } from '../../../algorithms/text/params.ts';
import { nearDuplicateCorpus } from './support.ts';

const texts = [...nearDuplicateCorpus(5, 25), '', 'a b c a b c', ...nearDuplicateCorpus(6, 10)];
const shingle = { unit: 'word', size: 2 } as const;

/** A worker call made in line: the module's export on the payload. */
async function inline<T>(url: string, name: string, payload: unknown): Promise<T> {
  const m = (await import(url)) as Record<string, (p: unknown) => T>;
  return (m[name] as (p: unknown) => T)(payload);
}

/** Each document's ranks: its distinct fingerprints as the jobs' token texts, ranked by their byte order. */
function reference(kind: FingerprintKind): number[][] {
  const docs = texts.map((t) => {
    const fps = shingleFingerprints(normalize(t), shingle, kind);
    const mine = new Set<string>();
    for (let i = 0; i < fps.count; i++) mine.add(fingerprintHex(fps.data, i, fps.width));
    return [...mine];
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const hex of d) df.set(hex, (df.get(hex) ?? 0) + 1);
  const order = [...df.keys()].map((hex) => tokenText(df.get(hex) as number, hex)).sort();
  const rank = new Map(order.map((text, r) => [text.slice(8), r]));
  return docs.map((d) => d.map((hex) => rank.get(hex) as number).sort((a, b) => a - b));
}

describe('PPJoin token ranks', () => {
  it.each(['rabin64', 'md5'] as const)('rank %s fingerprints by (document frequency, fingerprint), on any number of threads', async (kind) => {
    const expected = reference(kind);
    const features = mergeSlices([
      fingerprintSlice({ texts: texts.slice(0, 10), firstDoc: 0, shingle, kind }),
      fingerprintSlice({ texts: texts.slice(10), firstDoc: 10, shingle, kind }),
    ]);
    const ranked = rankTokensHere(features);
    const ranks = texts.map((_, d) => [...ranked.ranks.subarray(ranked.docStart[d], ranked.docStart[d + 1])]);
    expect(ranks).toEqual(expected);
    for (const threads of [1, 2, 3]) {
      expect((await rankTokens(features, threads, inline)).ranks).toEqual(ranked.ranks);
      expect(await signatures(features, 4, threads, inline)).toEqual(signaturesHere(features, 4));
    }
  });
});
