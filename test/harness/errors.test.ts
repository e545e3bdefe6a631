/** The one sanitizer every message that quotes input goes through, and the error taxonomy's edges. */
import { describe, expect, it } from 'vitest';
import { asEnvironmentError, clip, describeJsonError, escapeControls, printableLines, quote, UserError } from '../../harness/errors.ts';

describe('escapeControls', () => {
  it('writes every control character as an escape and leaves the rest alone', () => {
    expect(escapeControls('a\u001b[2J\tb\nc\rd\u0000\u0007\u007f\u009b é ☃ 𝄞')).toBe('a\\e[2J\\tb\\nc\\rd\\x00\\x07\\x7f\\x9b é ☃ 𝄞');
  });

  it('escapes the invisible characters that reorder or break a terminal line, and lone surrogates', () => {
    expect(escapeControls('x\u202ey\u2066z\u2028w\ufeff')).toBe('x\\u202ey\\u2066z\\u2028w\\ufeff');
    expect(escapeControls('a\ud800b\udc00c')).toBe('a\\ud800b\\udc00c');
  });
});

describe('clip and quote', () => {
  it('show at most 80 characters of the input, escaped, and mark the cut', () => {
    expect(quote('abc')).toBe("'abc'");
    expect(quote('x'.repeat(80))).toBe(`'${'x'.repeat(80)}'`);
    expect(quote('x'.repeat(81))).toBe(`'${'x'.repeat(80)}…'`);
    expect(quote('\u001b[2J')).toBe("'\\e[2J'");
    expect(clip('y'.repeat(5000), 10)).toBe(`${'y'.repeat(10)}…`);
  });

  it('count characters, not UTF-16 units, and never cut a character in two', () => {
    expect(clip('𝄞'.repeat(100), 3)).toBe('𝄞𝄞𝄞…');
    expect(clip('é'.repeat(3), 3)).toBe('ééé');
  });

  it('give the head of a huge input, marked as cut', () => {
    // How fast is for the benchmarks, not a unit test: clip looks at no more than 2 × max units.
    const huge = 'z'.repeat(50_000_000);
    expect(clip(huge)).toBe(`${'z'.repeat(80)}…`);
    expect(quote(`${'😀'.repeat(100)}${'z'.repeat(1_000_000)}`, 2)).toBe("'😀😀…'");
  });
});

describe('describeJsonError', () => {
  const where = (text: string) => {
    try {
      JSON.parse(text);
      return 'parsed';
    } catch (e) {
      return describeJsonError(text, e);
    }
  };

  it('names the byte where the JSON breaks, also when V8 gives no position', () => {
    expect(where('[1,]')).toBe("byte 3: Unexpected token ']'");
    expect(where('["é", x]')).toBe("byte 7: Unexpected token 'x'");
    expect(where('["a" "b"]')).toBe("byte 5: Expected ',' or ']' after array element");
    expect(where('["a",')).toBe('byte 5: Unexpected end of JSON input');
  });

  it('quotes no more of the input than the token, escaped', () => {
    expect(where(`\u001b[2J${'x'.repeat(500)}`)).toBe("byte 0: Unexpected token '\\e'");
  });
});

describe('asEnvironmentError', () => {
  const fsError = (code: string) => Object.assign(new Error(`${code}: boom`), { code, path: '/x/y', syscall: 'mkdir' });

  it('makes a permission, read-only, full-disk or not-a-directory error of the file system a one-line user error', () => {
    for (const code of ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR']) {
      const e = asEnvironmentError(fsError(code));
      expect(e).toBeInstanceOf(UserError);
      expect(e?.message).toMatch(/^\/x\/y: cannot mkdir: [a-z -]+$/);
    }
  });

  it('leaves other errors alone: they may be bugs', () => {
    expect(asEnvironmentError(fsError('ENOENT'))).toBeUndefined();
    expect(asEnvironmentError(new TypeError('x is undefined'))).toBeUndefined();
    expect(asEnvironmentError(Object.assign(new Error('no path'), { code: 'EACCES' }))).toBeUndefined();
  });
});

describe('printableLines (what bench prints of an error)', () => {
  it('escapes control characters on every line, whatever the message', () => {
    expect(printableLines('a\u001b[2J\nb\u0007', false)).toEqual(['a\\e[2J', 'b\\x07']);
  });

  it('bounds a user error: lines cut at 400 characters, at most 40 lines', () => {
    const lines = printableLines(['x'.repeat(1000), ...Array.from({ length: 100 }, (_, i) => `problem ${i}`)].join('\n'), true);
    expect(lines).toHaveLength(40);
    expect(lines[0]).toBe(`${'x'.repeat(400)}…`);
    expect(lines.at(-1)).toBe('… and 62 more');
  });

  it('leaves a stack whole (it is for a bug report)', () => {
    expect(printableLines(`E\n${'    at f (x.ts:1:1)\n'.repeat(60)}`, false)).toHaveLength(62);
  });
});
