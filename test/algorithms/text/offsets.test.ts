import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { normalizeWithOffsets, originalRange, shingleOccurrences } from '../../../algorithms/text/offsets.ts';
import { charShingles, wordShingles } from '../../../algorithms/text/shingles.ts';
import { fingerprintHex, fingerprintOf, shingleFingerprints, shingleRanges } from '../../../algorithms/text/fingerprint.ts';
import { wordStarts } from '../../../algorithms/text/tokens.ts';

const hex = (u: Uint32Array): string => [...u].map((w) => w.toString(16).padStart(8, '0')).join('');


/** The cut of `text` into character shingles of `size` at word starts (Rabin's) is the one the definitions compose: normalizeWithOffsets, shingleRanges, originalRange and shingleFingerprints. */
function expectCutAsDefined(text: string, size: number): void {
  const spec = { unit: 'char', size, start: 'word' } as const;
  const occ = shingleOccurrences(text, spec, 'rabin64');
  const n = normalizeWithOffsets(text);
  const r = shingleRanges(n.normalized, spec);
  const fps = shingleFingerprints(normalize(text), spec, 'rabin64');
  expect(occ.keys).toEqual(Array.from({ length: fps.count }, (_, k) => fingerprintHex(fps.data, k, 2)));
  expect(Array.from(occ.starts, (s, k) => [s, occ.ends[k]])).toEqual(Array.from(r.starts, (s, k) => originalRange(n, s, r.ends[k] as number)));
}
describe('normalizeWithOffsets', () => {
  it('maps each normalized character to the original characters it came from', () => {
    const n = normalizeWithOffsets('  Héllo,  WORLD! ');
    expect(n.normalized).toBe('héllo world');
    // "h" is text[2]; the space stands for ",  " starting at text[7]; "w" is text[10]
    expect([n.from[0], n.to[0]]).toEqual([2, 3]);
    expect([n.from[5], n.to[5]]).toEqual([7, 8]);
    expect([n.from[6], n.to[6]]).toEqual([10, 11]);
    expect([n.from[10], n.to[10]]).toEqual([14, 15]);
  });

  it('maps a character that lowers to two (İ → i̇) to the one it came from', () => {
    const n = normalizeWithOffsets('aİb');
    expect(n.normalized).toBe(normalize('aİb'));
    expect(n.normalized.length).toBe(4);
    expect([...n.from]).toEqual([0, 1, 1, 2]);
  });

  it("maps each character of normalize's text, in order, to an original character it stands for, for any text", () => {
    const chars = fc.constantFrom('a', 'B', ' ', '.', 'é', 'İ', 'Σ', 'ς', '😀', '\ud800', '\udc00', '7', '\u0301', '\n', 'ß');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const n = normalizeWithOffsets(text);
        expect(n.normalized).toBe(normalize(text));
        expect([...n.wordStarts]).toEqual([...wordStarts(n.normalized)]);
        expect(n.from.length).toBe(n.normalized.length);
        for (let k = 0; k < n.normalized.length; k++) {
          const original = text.slice(n.from[k], n.to[k]);
          // a space stands for a separator; any other unit is one of those its original lowers to
          if (n.normalized[k] === ' ') expect(normalize(original)).toBe('');
          // (Σ lowers to ς at the end of a word: lowering looks at the whole text)
          else expect(original.toLowerCase() + (original === 'Σ' ? 'ς' : '')).toContain(n.normalized[k]);
          if (k > 0) expect(n.from[k]).toBeGreaterThanOrEqual(n.from[k - 1] as number);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("maps an ASCII text's characters to themselves, the separators' runs to their first character, as normalize keeps them", () => {
    // every ASCII code unit, control characters too: the path without a lowering map
    const ascii = fc.array(fc.integer({ min: 0, max: 0x7f }), { maxLength: 60 }).map((cs) => String.fromCharCode(...cs));
    fc.assert(
      fc.property(ascii, (text) => {
        const n = normalizeWithOffsets(text);
        expect(n.normalized).toBe(normalize(text));
        expect([...n.wordStarts]).toEqual([...wordStarts(n.normalized)]);
        // a second method: the words' places by a regex, each run of separators between two words one space at its start
        const from: number[] = [];
        for (const m of text.matchAll(/[a-z0-9]+/gi)) {
          if (from.length > 0) from.push((m.index as number) - text.slice(0, m.index).match(/[^a-z0-9]*$/i)![0].length);
          for (let k = 0; k < m[0].length; k++) from.push((m.index as number) + k);
        }
        expect([...n.from]).toEqual(from);
        expect([...n.to]).toEqual(from.map((f) => f + 1));
      }),
      { numRuns: 500 },
    );
  });
});

describe('shingleOccurrences', () => {
  it('gives each shingle its fingerprint and the original characters it was cut from', () => {
    const text = 'The  quick, brown fox.';
    const occ = shingleOccurrences(text, { unit: 'word', size: 2 }, 'rabin64');
    expect(occ.keys).toEqual(wordShingles('the quick brown fox', 2).map((s) => hex(fingerprintOf(s, 'rabin64'))));
    // "The  quick" is [0, 10), "quick, brown" [5, 17), "brown fox" [12, 21)
    expect([...occ.starts]).toEqual([0, 5, 12]);
    expect([...occ.ends]).toEqual([10, 17, 21]);
  });

  it('cuts character shingles across word boundaries, as charShingles does', () => {
    const text = 'ab, cd ef';
    const occ = shingleOccurrences(text, { unit: 'char', size: 4, start: 'word' }, 'md5');
    expect(occ.keys).toEqual(charShingles('ab cd ef', 4).map((s) => hex(fingerprintOf(s, 'md5'))));
    // "ab c" ends at the "c" of text[4]; "cd e" is [4, 8)
    expect([...occ.starts]).toEqual([0, 4]);
    expect([...occ.ends]).toEqual([5, 8]);
  });

  it('places every shingle where shingleRanges and originalRange put it, for any text and size', () => {
    const chars = fc.constantFrom('a', 'B', ' ', '.', 'é', 'İ', 'Σ', '😀', '\ud800', '7', '\u0301', '\n', 'ß', 'xy');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), fc.constantFrom('char', 'word'), (parts, size, unit) => {
        const text = parts.join('');
        const spec = unit === 'char' ? ({ unit: 'char', size, start: 'word' } as const) : ({ unit: 'word', size } as const);
        const occ = shingleOccurrences(text, spec, 'rabin64');
        const n = normalizeWithOffsets(text);
        const r = shingleRanges(n.normalized, spec);
        const expected = Array.from(r.starts, (s, k) => originalRange(n, s, r.ends[k] as number));
        expect(Array.from(occ.starts, (s, k) => [s, occ.ends[k]])).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('cuts a one-byte text (in WebAssembly) into the shingles, fingerprints and ranges the definitions give, whatever its length', () => {
    // characters below U+0100 only: ASCII letters of both cases, digits, separators of every kind, and
    // Latin-1's letters (À, Þ lower to à, þ; ß, µ, ª, ÿ do not change), digits (², ½) and separators
    // (no-break space, ×, ÷, ¿, «); some texts normalize shorter than the size
    const chars = fc.constantFrom('a', 'Z', 'q', '0', '9', ' ', '  ', '.', ',', '\n', '\t', '-', '~', '\u0000', '\u007f', 'Hello', 'w0rld', 'À', 'Þ', 'é', 'ß', 'µ', 'ª', 'ÿ', '²', '½', '\u00a0', '×', '÷', '¿', '«', 'Ärger');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 4000 }), (parts, size, repeat) => {
        // repeated up to thousands of times: texts past the module's first 64 KiB of memory
        const text = parts.join('').repeat(repeat % 7 === 0 ? repeat : 1);
        expectCutAsDefined(text, size);
      }),
      { numRuns: 300 },
    );
  });

  it('cuts a text of any characters that lower one to one (in WebAssembly, two bytes a unit) as the definitions give', () => {
    // beside ASCII and Latin-1: letters that lower one to one (Σ and final ς, Ж, Ω, the Kelvin sign
    // to k), Hangul and Han, a combining mark, Arabic-Indic and fullwidth digits, and separators
    // above U+00FF (’ “ • € U+2028 U+3000 —); İ (lowers to two units) and 😀 (a surrogate pair)
    // send their texts to the JavaScript walk
    const chars = fc.constantFrom('a', 'Z', '0', ' ', '.', '\n', 'é', 'À', '\u00a0', 'Σ', 'ς', 'ΣΑΣ', 'Ж', 'Ω', '\u212a', '한국', '国', '\u0301', '٣', '\uff17', '’', '“', '•', '€', '\u2028', '\u3000', '—', 'word', 'İ', '😀');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3000 }), (parts, size, repeat) => {
        const text = parts.join('').repeat(repeat % 7 === 0 ? repeat : 1);
        expectCutAsDefined(text, size);
      }),
      { numRuns: 300 },
    );
  });

  it('writes each fingerprint in hex as fingerprintHex does, leading zeros kept', () => {
    const text = Array.from({ length: 400 }, (_, i) => `w${i} x${(i * 7919) % 1000}`).join(' ');
    for (const kind of ['rabin64', 'md5'] as const) {
      const occ = shingleOccurrences(text, { unit: 'char', size: 8, start: 'word' }, kind);
      const fps = shingleFingerprints(normalize(text), { unit: 'char', size: 8, start: 'word' }, kind);
      const expected = Array.from({ length: fps.count }, (_, k) => fingerprintHex(fps.data, k, fps.width));
      // a word under 0x10000000 is one in 16: among hundreds, some must be padded
      expect(expected.some((h) => /^0|^.{8}0|^.{16}0|^.{24}0/.test(h))).toBe(true);
      expect(occ.keys).toEqual(expected);
    }
  });
});
