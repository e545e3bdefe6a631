import { describe, expect, it } from 'vitest';
import { Utf8Builder } from '../../../kernels/io/utf8-builder.ts';

// Texts of every UTF-8 length: ASCII, 2-byte (é), 3-byte (≥, −, …), 4-byte (a surrogate pair), and a lone surrogate.
const PIECES = ['{"a":', 'héllo', ' ≥ 0.5 − 1…', '😀 ok', 'lone \ud800 here', '', '}\n'];

describe('Utf8Builder', () => {
  it('gives the bytes of the texts and byte pieces appended, in order, as Buffer.concat of each encoded alone', () => {
    const b = new Utf8Builder(16);
    const expected: Buffer[] = [];
    for (let round = 0; round < 50; round++) {
      for (const [k, p] of PIECES.entries()) {
        if ((round + k) % 3 === 0) {
          const bytes = Buffer.from(`${p}${round}`);
          b.bytes(bytes);
          expected.push(bytes);
        } else {
          b.text(p);
          expected.push(Buffer.from(p));
        }
      }
    }
    // 16 bytes to start: it grew many times on the way
    expect(b.result().equals(Buffer.concat(expected))).toBe(true);
  });

  it('leaves a result taken earlier as it was when it grows', () => {
    const b = new Utf8Builder(16);
    b.text('first line\n');
    const early = b.result();
    b.text('x'.repeat(1000));
    expect(early.toString()).toBe('first line\n');
    expect(b.result().length).toBe(1011);
  });

  it('encodes a text that needs the most room a code unit can take (3 bytes) into a buffer just big enough to start', () => {
    const b = new Utf8Builder(16);
    const threeByte = '≥'.repeat(100);
    b.text(threeByte);
    expect(b.result().equals(Buffer.from(threeByte))).toBe(true);
  });

  it('is empty with nothing appended', () => {
    expect(new Utf8Builder().result().length).toBe(0);
  });
});
