import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles, wordShingles } from '../../../algorithms/text/shingles.ts';

describe('charShingles', () => {
  it('starts a shingle at each word and spans n characters across word boundaries', () => {
    // starts 0, 4, 8; the shingle at 8 would need 13 > 11 characters and is dropped
    expect(charShingles('the cat sat', 5)).toEqual(['the c', 'cat s']);
  });

  it('keeps a shingle that ends exactly at the end of the text', () => {
    expect(charShingles('ab cd', 5)).toEqual(['ab cd']);
  });

  it('gives the whole text as one shingle when it is shorter than n', () => {
    expect(charShingles('ab cd', 6)).toEqual(['ab cd']);
  });

  it('gives no shingle for ""', () => {
    expect(charShingles('', 3)).toEqual([]);
  });

  it('gives one-character shingles for n = 1', () => {
    expect(charShingles('a b c', 1)).toEqual(['a', 'b', 'c']);
  });

  it('keeps duplicates in text order', () => {
    expect(charShingles('aa aa aa', 2)).toEqual(['aa', 'aa', 'aa']);
  });

  it('counts non-ASCII letters as one character each', () => {
    expect(charShingles('déjà vu', 4)).toEqual(['déjà']);
  });

  it('shingles normalized text (punctuation runs become one space first)', () => {
    expect(charShingles(normalize('Hello,   World!!'), 8)).toEqual(['hello wo']);
  });

  it('rejects a size that is not a positive integer', () => {
    expect(() => charShingles('abc', 0)).toThrow(RangeError);
    expect(() => charShingles('abc', 1.5)).toThrow(RangeError);
  });
});

describe('wordShingles', () => {
  it('gives every w consecutive words (Broder\'s "a rose is a rose" example)', () => {
    expect(wordShingles('a rose is a rose is a rose', 4)).toEqual([
      'a rose is a',
      'rose is a rose',
      'is a rose is',
      'a rose is a',
      'rose is a rose',
    ]);
  });

  it('gives one shingle of all words when there are fewer than w', () => {
    expect(wordShingles('one two', 3)).toEqual(['one two']);
  });

  it('gives one shingle when there are exactly w words', () => {
    expect(wordShingles('x y z', 3)).toEqual(['x y z']);
  });

  it('gives the words themselves for w = 1', () => {
    expect(wordShingles('x y x', 1)).toEqual(['x', 'y', 'x']);
  });

  it('gives no shingle for ""', () => {
    expect(wordShingles('', 2)).toEqual([]);
  });

  it('rejects a size that is not a positive integer', () => {
    expect(() => wordShingles('a b', 0)).toThrow(RangeError);
  });
});
