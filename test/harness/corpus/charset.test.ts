import { describe, expect, it } from 'vitest';
import { decodeCharset } from '../../../harness/corpus/charset.ts';

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

describe('decodeCharset', () => {
  it('reads ASCII whatever the label', () => {
    expect(decodeCharset(bytes(0x61, 0x62), undefined)).toEqual({ kind: 'exact', text: 'ab' });
    expect(decodeCharset(bytes(0x61, 0x62), 'x-unknown')).toEqual({ kind: 'exact', text: 'ab' });
  });

  it('decodes declared UTF-8 and undeclared valid UTF-8 exactly', () => {
    expect(decodeCharset(bytes(0xc3, 0xa9), 'UTF-8')).toEqual({ kind: 'exact', text: 'é' });
    expect(decodeCharset(bytes(0xc3, 0xa9), undefined)).toEqual({ kind: 'exact', text: 'é' });
  });

  it('falls back to windows-1252 when declared UTF-8 is invalid, instead of U+FFFD', () => {
    const d = decodeCharset(bytes(0x63, 0x61, 0x66, 0xe9), 'utf-8');
    expect(d).toMatchObject({ kind: 'fallback', text: 'café' });
  });

  it('falls back when 8-bit bytes come with no charset and are not UTF-8', () => {
    expect(decodeCharset(bytes(0xe9), undefined)).toMatchObject({ kind: 'fallback', text: 'é' });
  });

  it('decodes single-byte charsets through iconv-lite', () => {
    expect(decodeCharset(bytes(0xe9), 'ISO-8859-1')).toEqual({ kind: 'exact', text: 'é' });
    expect(decodeCharset(bytes(0xc1), 'koi8-r')).toEqual({ kind: 'exact', text: 'а' });
  });

  it('decodes ISO-2022-JP, which iconv-lite lacks, through the runtime decoder', () => {
    // ESC $ B, JIS 0x2422 (あ), ESC ( B
    expect(decodeCharset(bytes(0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x42), 'iso-2022-jp')).toEqual({ kind: 'exact', text: 'あ' });
  });

  it('does not read UTF-16 as ASCII', () => {
    expect(decodeCharset(bytes(0x41, 0x00), 'utf-16le')).toEqual({ kind: 'exact', text: 'A' });
  });

  it('maps every byte in the fallback, the five undefined in windows-1252 included', () => {
    const d = decodeCharset(bytes(0x80, 0x81, 0x9d), 'x-unknown');
    expect(d).toEqual({ kind: 'fallback', text: '€\u0081\u009d', problem: "unknown charset 'x-unknown'" });
  });

  it('falls back when the bytes are invalid in a multi-byte charset', () => {
    // 0xA1 opens a two-byte GB2312 character that never comes.
    expect(decodeCharset(bytes(0x61, 0xa1), 'gb2312')).toMatchObject({ kind: 'fallback', text: 'a¡' });
  });
});
