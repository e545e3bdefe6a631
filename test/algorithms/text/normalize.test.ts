import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { mulberry32, randomText } from './random-text.ts';

describe('normalize', () => {
  it('lower-cases and turns punctuation into single spaces', () => {
    expect(normalize('Hello, World!')).toBe('hello world');
  });

  it('trims leading and trailing separator runs', () => {
    expect(normalize('  --Leading and trailing...  ')).toBe('leading and trailing');
  });

  it('collapses runs of mixed white space and punctuation to one space', () => {
    expect(normalize('tabs\t\tand\n\r\nnewlines; ,  !? end')).toBe('tabs and newlines end');
  });

  it('keeps digits as word characters and splits on the decimal point', () => {
    expect(normalize('Route 66, km 12.5')).toBe('route 66 km 12 5');
  });

  it('gives "" for empty text and for text without words', () => {
    expect(normalize('')).toBe('');
    expect(normalize('!!! ??? ... \n\t')).toBe('');
  });

  it('treats underscore and apostrophe as punctuation', () => {
    expect(normalize("snake_case don't")).toBe('snake case don t');
  });

  it('keeps Latin-1 letters and lower-cases them', () => {
    expect(normalize('Ünïcödé Straße, ÉTÉ')).toBe('ünïcödé straße été');
  });

  it('keeps letters beyond Latin-1 (Greek, Cyrillic, ligature) after Latin-1 words', () => {
    expect(normalize('abc ΑΘΗΝΑ — Москва ĳk')).toBe('abc αθηνα москва ĳk');
  });

  it('treats a dash above U+00FF as a separator', () => {
    expect(normalize('a\u2014b\u2026c')).toBe('a b c');
  });

  it('keeps combining marks inside the word', () => {
    expect(normalize('Cafe\u0301, ok')).toBe('cafe\u0301 ok');
  });

  it('keeps the combining dot that lower-casing İ produces', () => {
    expect(normalize('İstanbul')).toBe('i\u0307stanbul');
  });

  it('keeps other numerals (superscripts, fractions)', () => {
    expect(normalize('x² = ½')).toBe('x² ½');
  });

  it('keeps astral letters and drops astral symbols', () => {
    expect(normalize('\u{1D400}\u{1D401} x')).toBe('\u{1D400}\u{1D401} x');
    expect(normalize('a\u{1F600}b')).toBe('a b');
  });

  it('treats lone surrogates as separators', () => {
    expect(normalize('a\uD800b')).toBe('a b');
    expect(normalize('a\uDC00b')).toBe('a b');
    expect(normalize('a\uD800')).toBe('a');
  });

  it('handles a text larger than its reusable buffer, and a short one after it', () => {
    expect(normalize('Word, '.repeat(50_000))).toBe(new Array(50_000).fill('word').join(' '));
    expect(normalize('Short!')).toBe('short');
  });

  it('agrees with a naive regex normalization on random mixed-script text', () => {
    const naive = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim();
    const random = mulberry32(7);
    for (let k = 0; k < 500; k++) {
      const text = randomText(random, Math.floor(random() * 200));
      expect(normalize(text)).toBe(naive(text));
    }
  });
});
