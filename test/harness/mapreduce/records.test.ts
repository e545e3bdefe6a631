import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord, escapeField, unescapeField } from '../../../harness/mapreduce/records.ts';

describe('record text encoding', () => {
  it('escapes exactly backslash, TAB, LF and CR', () => {
    expect(escapeField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(escapeField('plain text, ünïcode')).toBe('plain text, ünïcode');
  });

  it('puts one TAB between key and value and none inside them', () => {
    const line = encodeRecord('k\t1', 'v\t2\nx');
    expect(line).toBe('k\\t1\tv\\t2\\nx');
    expect(line.split('\t')).toHaveLength(2);
    expect(line.includes('\n')).toBe(false);
  });

  it('round-trips any string, including escapes that look like escapes', () => {
    const samples = ['', '\\', '\\t', '\\\\n', '\t\t', '\n', 'a\r\nb', 'π\u0000\u2028', 'x'.repeat(1000)];
    for (const k of samples) for (const v of samples) expect(decodeRecord(encodeRecord(k, v))).toEqual([k, v]);
  });

  it('round-trips random strings over a small hostile alphabet', () => {
    const alphabet = ['a', '\\', '\t', '\n', '\r', 't', 'n', ' ', 'é'];
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: rand(12) }, () => alphabet[rand(alphabet.length)]).join('');
      const t = Array.from({ length: rand(12) }, () => alphabet[rand(alphabet.length)]).join('');
      expect(decodeRecord(encodeRecord(s, t))).toEqual([s, t]);
    }
  });

  it("reads a line without TAB as a key with an empty value (Hadoop's rule)", () => {
    expect(decodeRecord('lonely')).toEqual(['lonely', '']);
  });

  it('splits at the first TAB only', () => {
    expect(decodeRecord('k\tv1\tv2')).toEqual(['k', 'v1\tv2']);
  });

  it('rejects an unknown escape', () => {
    expect(() => unescapeField('a\\qb')).toThrow(/invalid escape/);
  });
});
