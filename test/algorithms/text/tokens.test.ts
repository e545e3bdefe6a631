import { describe, expect, it } from 'vitest';
import { wordStarts, words } from '../../../algorithms/text/tokens.ts';

describe('words', () => {
  it('splits a normalized text at its single spaces', () => {
    expect(words('the quick brown fox')).toEqual(['the', 'quick', 'brown', 'fox']);
  });

  it('gives one word for a text without spaces and none for ""', () => {
    expect(words('x')).toEqual(['x']);
    expect(words('')).toEqual([]);
  });

  it('ignores stray leading, trailing and repeated spaces', () => {
    expect(words(' a  b ')).toEqual(['a', 'b']);
  });
});

describe('wordStarts', () => {
  it('gives the offset of the first character of each word', () => {
    expect([...wordStarts('the quick brown fox')]).toEqual([0, 4, 10, 16]);
  });

  it('gives no offsets for ""', () => {
    expect(wordStarts('')).toHaveLength(0);
  });

  it('counts offsets in UTF-16 code units', () => {
    // "\u{1D400}" is two code units, so "b" starts at 3.
    expect([...wordStarts('\u{1D400} b')]).toEqual([0, 3]);
  });
});
