import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/broder/index.ts';
import { countsByPass, countsFromFeatures, documentCounts } from '../../../algorithms/text/feature-counts.ts';
import { fingerprintSlice, mergeSlices } from '../../../algorithms/text/features.ts';
import { docSet } from '../../support/corpus.ts';

const explain = adapter.explain!;

describe('documentCounts', () => {
  it('counts documents from the features an earlier run kept as a pass over the collection counts them', async () => {
        const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat', 'zzz'];
    for (const fingerprint of ['rabin64', 'md5'] as const) {
      const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint });
      const features = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle: p.shingle, kind: fingerprint })]);
      const keys = [...new Set(texts.flatMap((t) => explain.features!(p, t).keys))];
      const absent = fingerprint === 'md5' ? 'ffffffffffffffffffffffffffffffff' : 'ffffffffffffffff';
      const fromFeatures = countsFromFeatures(features, [...keys, absent]);
      expect(fromFeatures).toEqual(new Map([...countsByPass(docSet(texts), p.shingle, p.fingerprint, keys), [absent, 0]]));
      // "sat on" is in the first four documents
      expect(fromFeatures.get(explain.features!(p, 'sat on').keys[0] as string)).toBe(4);
    }
  });

  it('without stored features, computes them once for all the pairs of a run (a shared cache), and counts as a pass does', () => {
    const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat', 'zzz'];
    const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint: 'rabin64' });
    const docs = docSet(texts);
    const computed: string[] = [];
    const shared = new Map<string, unknown>();
    const cached = <T>(key: string, compute: () => T): T => {
      if (!shared.has(key)) {
        computed.push(key);
        shared.set(key, compute());
      }
      return shared.get(key) as T;
    };
    for (const [a, b] of [[0, 1], [2, 3], [0, 4]] as const) {
      const keys = [...new Set([...explain.features!(p, texts[a] as string).keys, ...explain.features!(p, texts[b] as string).keys])];
      expect(documentCounts({ docs, cached }, p.shingle, p.fingerprint, keys)).toEqual(countsByPass(docs, p.shingle, p.fingerprint, keys));
    }
    expect(computed.filter((k) => k.startsWith('features-by-pass:'))).toHaveLength(1);
  });
});
