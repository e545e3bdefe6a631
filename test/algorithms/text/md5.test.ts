import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5Digest, md5Into } from '../../../algorithms/text/md5.ts';
import { mulberry32, randomText } from './random-text.ts';

describe('md5Digest', () => {
  // RFC 1321, appendix A.5 test suite
  it('matches the published test vectors', () => {
    expect(md5Digest('').toString('hex')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Digest('abc').toString('hex')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Digest('message digest').toString('hex')).toBe('f96b697d7cb7938d525a2f31aaf161d0');
  });
});

describe('md5Into', () => {
  it('writes the digest of the UTF-8 bytes as four big-endian words', () => {
    const random = mulberry32(5);
    const out = new Uint32Array(5);
    for (let k = 0; k < 200; k++) {
      const s = randomText(random, Math.floor(random() * 100));
      md5Into(s, out, 1);
      const expected = createHash('md5').update(Buffer.from(s, 'utf8')).digest();
      const words = [0, 4, 8, 12].map((offset) => expected.readUInt32BE(offset));
      expect([...out.subarray(1)]).toEqual(words);
    }
  });
});
