import { describe, expect, it } from 'vitest';
import { mergeWordSlices, wordSetSlice } from '../../../algorithms/text/word-sets.ts';
import { mulberry32, randomText } from './random-text.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';

describe('word sets', () => {
  it('hold each document\'s distinct words as ranks in the sorted vocabulary, however the corpus is sliced', () => {
    const random = mulberry32(17);
    const texts = Array.from({ length: 40 }, () => randomText(random, 300));
    texts.push('', 'Zebra apple zebra APPLE mango');
    // straight from the definitions: split the normalized text, de-duplicate, sort
    const sets = texts.map((t) => [...new Set(normalize(t).split(' ').filter((w) => w !== ''))].sort());
    const vocabulary = [...new Set(sets.flat())].sort();
    for (const cuts of [[texts.length], [1, 20, texts.length], [0, 7, 7, 30, texts.length]]) {
      const slices = [];
      let from = 0;
      for (const to of cuts) {
        slices.push(wordSetSlice({ texts: texts.slice(from, to) }));
        from = to;
      }
      const merged = mergeWordSlices(slices);
      expect(merged.docs).toBe(texts.length);
      expect(merged.vocabulary).toEqual(vocabulary);
      const got = texts.map((_, d) => [...merged.ids.subarray(merged.docStart[d], merged.docStart[d + 1])].map((id) => vocabulary[id]));
      expect(got).toEqual(sets);
      expect([...merged.df]).toEqual(vocabulary.map((w) => sets.filter((s) => s.includes(w)).length));
    }
    expect(sets[sets.length - 1]).toEqual(['apple', 'mango', 'zebra']);
  });
});
