import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../algorithms/text/sentences.ts';

/** The sentences as text, the way a reader checks them by eye. */
const texts = (t: string): string[] => splitSentences(t).map((s) => t.slice(s.start, s.end));

describe('sentence splitting', () => {
  it('gives character offsets into the original text, from the first to the last non-space character', () => {
    const t = '  Hello there.  How are you?\n';
    // by hand: "Hello there." is [2, 14), "How are you?" is [16, 28)
    expect(splitSentences(t)).toEqual([
      { start: 2, end: 14 },
      { start: 16, end: 28 },
    ]);
  });

  it('breaks after . ! ? and ellipses followed by space, keeping closing quotes and brackets (S1, S8)', () => {
    expect(texts('He said "stop." Then he left! Why? (Nobody knows.) The end… Really')).toEqual([
      'He said "stop."',
      'Then he left!',
      'Why?',
      '(Nobody knows.)',
      'The end…',
      'Really',
    ]);
  });

  it('does not break inside numbers, addresses and versions (S2)', () => {
    expect(texts('Pi is 3.14 and www.example.com is up. Upgrade x.0->x.y now.')).toEqual([
      'Pi is 3.14 and www.example.com is up.',
      'Upgrade x.0->x.y now.',
    ]);
  });

  it('does not break before a lower-case word, after titles, Latin abbreviations, initials and list numbers (S3-S6)', () => {
    expect(texts('We met Dr. Who and Mr. Smith. See e.g. Knuth. Ask J. R. Tolkien. It costs approx. 5 dollars.')).toEqual([
      'We met Dr. Who and Mr. Smith.',
      'See e.g. Knuth.',
      'Ask J. R. Tolkien.',
      'It costs approx. 5 dollars.',
    ]);
    expect(texts('Use apt etc. and rpm. Done.')).toEqual(['Use apt etc. and rpm.', 'Done.']);
    expect(texts('1. Install it. 2. Run it.')).toEqual(['1. Install it.', '2. Run it.']);
  });

  it('treats line breaks in a paragraph as spaces and blank or word-less lines as boundaries (B2, B4)', () => {
    const t = 'This sentence is\nwrapped over lines\n\nNew paragraph without a stop\n-- \nStew\n____\nFooter line';
    expect(texts(t)).toEqual(['This sentence is\nwrapped over lines', 'New paragraph without a stop', 'Stew', 'Footer line']);
  });

  it('skips quote prefixes, splits at quote-depth changes, and treats quote-only lines as blank (B1-B3)', () => {
    const t = 'Martin wrote:\n> Isn\'t it just egg and\n> bacon? You mix it.\n>\n> Second paragraph\n>> deeper quote\nMy reply.';
    const s = splitSentences(t);
    expect(s.map((x) => t.slice(x.start, x.end))).toEqual([
      'Martin wrote:',
      "Isn't it just egg and\n> bacon?",
      'You mix it.',
      'Second paragraph',
      'deeper quote',
      'My reply.',
    ]);
    // by hand: "Isn't" starts after "Martin wrote:\n> " (13 + 1 + 2 characters)
    expect(s[1]?.start).toBe(16);
  });

  it('splits CJK text at its full stops without spaces (S7) and drops ranges without letters or digits', () => {
    expect(texts('今天下雨。我们在家！好吗？')).toEqual(['今天下雨。', '我们在家！', '好吗？']);
    expect(texts('... !!! ?')).toEqual([]);
    expect(texts('')).toEqual([]);
  });

  it('splits a run of sentences the same way inside another document when it is a paragraph of its own', () => {
    const run = 'Dr. No came back. He was late.\nVery late!';
    const host = `Some text here that. goes on\n\n${run}\n\nand ends lower case.`;
    const alone = texts(run);
    const inside = texts(host);
    expect(alone).toEqual(['Dr. No came back.', 'He was late.', 'Very late!']);
    expect(inside.slice(1, 4)).toEqual(alone);
    expect(inside).toHaveLength(5);
  });
});
