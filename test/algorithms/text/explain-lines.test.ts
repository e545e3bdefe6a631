import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fit, quoted } from '../../../algorithms/text/explain-lines.ts';

/** The definition quoted follows: white space collapsed to one space and trimmed, then cut with … to fit. */
function reference(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const room = Math.max(3, max - 2);
  return `"${flat.length <= room ? flat : `${flat.slice(0, room - 1)}…`}"`;
}

describe('quoted', () => {
  it('collapses runs of white space, tabs, newlines and no-break spaces, and trims, by hand', () => {
    expect(quoted('  a \t b\n\nc\u00a0d  ', 40)).toBe('"a b c d"');
    expect(quoted('one two', 40)).toBe('"one two"');
    expect(quoted('abcdefghij', 8)).toBe('"abcde…"');
  });

  it('gives what collapsing every run of white space gives, for any text and width', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', 'é', '😀');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), fc.integer({ min: 0, max: 40 }), (parts, max) => {
        const text = parts.join('');
        expect(quoted(text, max)).toBe(reference(text, max));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('fit', () => {
  it('cuts a line longer than the width with …, and leaves a shorter one alone', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('abc', 4)).toBe('abc');
  });
});
