import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { documentFrequencies } from '../../../algorithms/text/document-frequencies.ts';
import { dropMask, droppedCount, inIdfRange, lexiconTerms, Lexicons, sortedUnique, termSignature } from '../../../algorithms/text/lexicon.ts';
import { mulberry32 } from './random-text.ts';

const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex');

describe('I-Match signature', () => {
  it('is SHA-1 of the sorted unique terms joined by newlines, as node:crypto and Python hashlib compute it', () => {
    const terms = sortedUnique(['sat', 'cat', 'mat', 'cat']);
    expect(terms).toEqual(['cat', 'mat', 'sat']);
    expect(termSignature(terms)).toBe(sha1('cat\nmat\nsat'));
    // python3: hashlib.sha1('cat\nmat\nsat'.encode('utf-8')).hexdigest()
    expect(termSignature(terms)).toBe('ff68e756a2be9db2e7eba6823447a31ab4872325');
    // non-ASCII terms are signed as UTF-8: hashlib.sha1('naïve\nzürich'.encode('utf-8'))
    expect(termSignature(sortedUnique(['zürich', 'naïve']))).toBe('4aaf7dadd0e0d38297c10aa50076a04e5ba20c45');
  });

  it('keeps {ab, c} apart from {a, bc}', () => {
    // hashlib.sha1(b'ab\nc') and hashlib.sha1(b'a\nbc')
    expect(termSignature(['ab', 'c'])).toBe('a7b41edca119be5c31c7bad46000f2310556d226');
    expect(termSignature(['a', 'bc'])).toBe('0a61d1bcbf41df80fa691814613423e9dc7394be');
  });
});

describe('lexicon by normalized idf', () => {
  // N = 4 units; df: a 4 (idf 0), b 2 (log 2 / log 4 = 0.5), c 1 (1), d 3 (log(4/3)/log 4 = 0.2075…)
  const table = documentFrequencies([
    ['a', 'b', 'c', 'd'],
    ['a', 'b', 'd'],
    ['a', 'd'],
    ['a'],
  ]);

  it('keeps the terms whose idf lies in the closed range', () => {
    expect(lexiconTerms(table, { min: 0.1, max: 1 })).toEqual(['b', 'c', 'd']);
    expect(lexiconTerms(table, { min: 0.3, max: 0.9 })).toEqual(['b']);
    expect(lexiconTerms(table, { min: 0, max: 0.2 })).toEqual(['a']);
    expect(lexiconTerms(table, { min: 0, max: 1 })).toEqual(['a', 'b', 'c', 'd']);
    // both ends included: idf(b) = 0.5 exactly, idf(c) = 1 exactly
    expect(lexiconTerms(table, { min: 0.5, max: 0.5 })).toEqual(['b']);
    expect(inIdfRange(1, 4, { min: 1, max: 1 })).toBe(true);
  });

  it('signs a unit by the lexicon terms it holds, none when it holds none', () => {
    const lex = new Lexicons(lexiconTerms(table, { min: 0.1, max: 1 }));
    expect(lex.count).toBe(1);
    expect(lex.signatures(sortedUnique(['d', 'a', 'b', 'zz']))).toEqual([sha1('b\nd')]);
    expect(lex.signatures(['a'])).toEqual([null]);
    expect(lex.signatures([])).toEqual([null]);
  });
});

describe('randomized lexicons', () => {
  const vocabulary = Array.from({ length: 200 }, (_, i) => `w${i}`);

  it('drop exactly round(p·L) terms', () => {
    for (const p of [0.01, 0.3, 0.5, 0.99]) {
      const mask = dropMask(vocabulary, 1, p, 7);
      expect(mask.reduce((s, x) => s + x, 0)).toBe(Math.round(p * 200));
    }
    expect(droppedCount(7, 0.5)).toBe(4);
    expect(dropMask(['a', 'b', 'c'], 1, 0.1, 1).every((x) => x === 0)).toBe(true);
  });

  it('drop the same terms whatever order the terms come in, and other terms for another seed or lexicon', () => {
    const dropped = (terms: readonly string[], j: number, seed: number): string[] => {
      const mask = dropMask(terms, j, 0.3, seed);
      return terms.filter((_, i) => mask[i] === 1).sort();
    };
    const shuffled = [...vocabulary].reverse();
    expect(dropped(shuffled, 3, 42)).toEqual(dropped(vocabulary, 3, 42));
    expect(dropped(vocabulary, 3, 43)).not.toEqual(dropped(vocabulary, 3, 42));
    expect(dropped(vocabulary, 4, 42)).not.toEqual(dropped(vocabulary, 3, 42));
    // seeds above 2^32 are used whole
    expect(dropped(vocabulary, 1, 2 ** 32 + 5)).not.toEqual(dropped(vocabulary, 1, 5));
  });

  it('drop each term with frequency p and each pair of terms with the hypergeometric m(m-1)/(L(L-1))', () => {
    // L = 200, p = 0.3: m = 60. Over J = 2000 lexicons a term's drop count is Binomial(2000, 0.3):
    // mean 600, sd sqrt(2000·0.3·0.7) = 20.5; a fixed pair's co-drop count has mean
    // 2000·60·59/(200·199) = 177.9, sd sqrt(177.9·(1 − 0.0889)) = 12.7. Bounds at 5 sd.
    const J = 2000;
    const counts = new Array<number>(200).fill(0);
    let pair01 = 0;
    let pair57 = 0;
    for (let j = 1; j <= J; j++) {
      const mask = dropMask(vocabulary, j, 0.3, 1);
      mask.forEach((x, i) => (counts[i] = (counts[i] as number) + x));
      if (mask[0] && mask[1]) pair01++;
      if (mask[5] && mask[7]) pair57++;
    }
    for (const c of counts) expect(Math.abs(c - 600)).toBeLessThan(5 * 20.5);
    expect(Math.abs(pair01 - 177.9)).toBeLessThan(5 * 12.7);
    expect(Math.abs(pair57 - 177.9)).toBeLessThan(5 * 12.7);
  });

  it('give K+1 signatures, signature j over the terms lexicon j holds', () => {
    const lex = new Lexicons(vocabulary, { extra: 5, drop: 0.5, seed: 9 });
    expect(lex.count).toBe(6);
    const random = mulberry32(3);
    const unit = sortedUnique(Array.from({ length: 30 }, () => `w${Math.floor(random() * 250)}`));
    const sigs = lex.signatures(unit);
    expect(sigs).toHaveLength(6);
    expect(sigs[0]).toBe(sha1(unit.filter((t) => vocabulary.includes(t)).join('\n')));
    for (let j = 1; j <= 5; j++) {
      const mask = dropMask(vocabulary, j, 0.5, 9);
      const kept = unit.filter((t) => vocabulary.includes(t) && mask[vocabulary.indexOf(t)] === 0);
      expect(sigs[j]).toBe(kept.length === 0 ? null : sha1(kept.join('\n')));
    }
    // the lexicons of K = 2 are the first two of K = 5
    expect(new Lexicons(vocabulary, { extra: 2, drop: 0.5, seed: 9 }).signatures(unit)).toEqual(sigs.slice(0, 3));
  });

  it('refuses repeated terms', () => {
    expect(() => new Lexicons(['a', 'a'])).toThrow('distinct');
  });
});
