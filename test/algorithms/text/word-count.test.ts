import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { documentWords, wordCount } from '../../../algorithms/text/word-count.ts';
import { mulberry32, randomText } from './random-text.ts';

describe('documentWords', () => {
  it('counts the words of the normalized text, by hand', () => {
    expect(documentWords('Hello, World!  (2024)')).toBe(3); // hello world 2024
    expect(documentWords('  ...  ')).toBe(0);
    expect(documentWords('İstanbul\u2014e\u0301t\u00e9')).toBe(2); // i̇stanbul and été: the dash separates
    expect(documentWords('a\u{1D400}b \u{1F600} c')).toBe(2); // 𝐀 is a letter inside the word; 😀 is a separator
    expect(documentWords('x\uD800y')).toBe(2); // a lone surrogate separates
  });

  // The second method: normalize, then count the runs between spaces.
  it('equals normalizing and counting on random mixed-script text', () => {
    const random = mulberry32(11);
    for (let i = 0; i < 500; i++) {
      const text = randomText(random, Math.floor(random() * 300));
      expect(documentWords(text)).toBe(wordCount(normalize(text)));
    }
  });
});
