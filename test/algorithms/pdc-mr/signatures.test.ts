import { describe, expect, it } from 'vitest';
import type { SentenceSignature } from '../../../algorithms/text/params.ts';
import { hexWords, makeKeySigner, makeSigner, mostFrequent, shingleSignatures, spotChains, spotSignatures } from '../../../algorithms/text/sentence-signatures.ts';
import { fingerprintHex, fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import { KeyTable } from '../../../algorithms/text/key-table.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { mulberry32, randomText } from '../text/random-text.ts';

const hex = (s: string): string => fingerprintHex(fingerprintOf(s, 'rabin64'), 0, 2);

describe('sentence signatures', () => {
  it('shingles: every n consecutive words, distinct, as 64-bit Rabin fingerprints', () => {
    expect(shingleSignatures('the cat sat on the cat sat', 3)).toEqual(['the cat sat', 'cat sat on', 'sat on the', 'on the cat'].map(hex));
    // fewer words than n: one shingle of all of them
    expect(shingleSignatures('hello world', 4)).toEqual([hex('hello world')]);
    expect(shingleSignatures('', 2)).toEqual([]);
  });

  // Theobald et al.'s example sentence, with antecedents {at, a, to, off, for, the}
  const sentence = 'at a rally to kick off a weeklong campaign for the south carolina primary obama'.split(' ');
  const antecedents = new Set(['at', 'a', 'to', 'off', 'for', 'the']);

  it('spotsigs: an antecedent and the next content words, by hand', () => {
    // content words after each antecedent, in order: rally kick weeklong campaign south carolina primary obama
    expect(spotChains(sentence, antecedents, 1, 2)).toEqual([
      'at:rally:kick',
      'a:rally:kick',
      'to:kick:weeklong',
      'off:weeklong:campaign',
      'a:weeklong:campaign',
      'for:south:carolina',
      'the:south:carolina',
    ]);
    // distance 2: every second content word
    expect(spotChains(sentence, antecedents, 2, 2).slice(-3)).toEqual(['a:campaign:carolina', 'for:carolina:obama', 'the:carolina:obama']);
    // a chain that would run past the end of the sentence gives nothing: after "for" and "the"
    // come only 4 content words, so with c = 5 the last spots are "off" and the second "a"
    expect(spotChains(sentence, antecedents, 1, 5).slice(-2)).toEqual([
      'off:weeklong:campaign:south:carolina:primary',
      'a:weeklong:campaign:south:carolina:primary',
    ]);
    expect(spotChains(['the', 'end'], antecedents, 1, 2)).toEqual([]);
    // repeated spots are one signature
    expect(spotSignatures(sentence, antecedents, 1, 2)).toHaveLength(7);
    expect(spotSignatures('the cat sat the cat sat'.split(' '), antecedents, 1, 2)).toEqual([hex('the:cat:sat')]);
  });

  it('antecedents are the k terms of highest document frequency, ties by term', () => {
    const df = { documents: 5, df: new Map([['b', 3], ['a', 3], ['c', 5], ['d', 1]]) };
    expect(mostFrequent(df, 3)).toEqual(['c', 'a', 'b']);
    expect(mostFrequent(df, 10)).toEqual(['c', 'a', 'b', 'd']);
  });
});

describe('the kernel\'s binary signatures', () => {
  const tables = { antecedents: ['the', 'a', 'of', 'e', 'in'], lexicon: ['cat', 'sat', 'mat', 'dog', 'a', 'b', 'c', 'd', 'x', 'y'] };
  const specs: SentenceSignature[] = [
    { method: 'shingles', n: 2 },
    { method: 'shingles', n: 4 },
    { method: 'spotsigs', antecedents: 5, distance: 1, chain: 2 },
    { method: 'spotsigs', antecedents: 5, distance: 2, chain: 3 },
    { method: 'imatch', idf_min: 0, idf_max: 1 },
  ];
  const random = mulberry32(7);
  const sentences = [
    'the cat sat on the mat of the cat sat on the mat',
    '',
    'a',
    ...Array.from({ length: 200 }, () => normalize(randomText(random, Math.floor(random() * 300)))),
  ];

  it.each(specs)('are the hex strings of the signer, read as words, in the same order: %j', (spec) => {
    const signer = makeSigner(spec, tables);
    const keys = makeKeySigner(spec, tables);
    const table = new KeyTable(keys.width);
    for (const s of sentences) {
      table.clear();
      keys.sign(s, table);
      expect([...table.keys()]).toEqual(signer(s).flatMap((h) => [...hexWords(h)]));
    }
  });

  it('reads hex digits 8 a word', () => {
    expect([...hexWords('00000001ffffffff')]).toEqual([1, 0xffffffff]);
    expect(fingerprintHex(hexWords('0123456789abcdef'), 0, 2)).toBe('0123456789abcdef');
  });
});
