import { describe, expect, it } from 'vitest';
import { lookup3Utf16 } from '../../../algorithms/text/lookup3.ts';

/** The string whose UTF-16LE bytes are `bytes` (even length): two bytes per code unit. */
function fromBytes(bytes: string): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 2) s += String.fromCharCode(bytes.charCodeAt(i) | (bytes.charCodeAt(i + 1) << 8));
  return s;
}

function hex(s: string, pc = 0, pb = 0, start = 0, end = s.length): string {
  const out = new Uint32Array(2);
  lookup3Utf16(s, start, end, pc, pb, out, 0);
  return (out[0] as number).toString(16).padStart(8, '0') + (out[1] as number).toString(16).padStart(8, '0');
}

describe('lookup3 hashlittle2', () => {
  it("gives Jenkins' own driver5 values of lookup3.c", () => {
    // The comments of driver5() in lookup3.c: (c, b) for each (string, *pc, *pb).
    const four = fromBytes('Four score and seven years ago'); // 30 bytes: 15 code units
    expect(hex('', 0, 0)).toBe('deadbeefdeadbeef');
    expect(hex('', 0, 0xdeadbeef)).toBe('bd5b7ddedeadbeef');
    expect(hex('', 0xdeadbeef, 0xdeadbeef)).toBe('9c093ccdbd5b7dde');
    expect(hex(four, 0, 0)).toBe('17770551ce7226e6');
    expect(hex(four, 0, 1)).toBe('e3607caebd371de4');
    expect(hex(four, 1, 0)).toBe('cd6281616cbea4b3');
  });

  it('equals an independent Python implementation on UTF-16LE bytes', () => {
    // test/algorithms/simhash/reference/lookup3.py and vectors.py (written from the algorithm, checked against the driver5
    // vectors above): hashlittle2(w.encode('utf-16-le'), pc, pb), printed as c then b.
    const vectors: [string, number, number, string][] = [
      ['', 0x12345678, 0x9abcdef0, '8b9ef457f0e21567'],
      ['a', 0, 0, '42b176714b7f869d'],
      ['ab', 0x12345678, 0x9abcdef0, '66b879a935db769d'],
      ['abc', 0, 0, 'fc0815e03dcc224c'],
      ['abcd', 0, 0, '4e536fcb02d6a6fc'],
      ['abcde', 0x12345678, 0x9abcdef0, '2342197903da22d9'],
      ['abcdef', 0, 0, '1e7f077ea73afbaa'],
      ['abcdefg', 0, 0, 'edd121c28dcf85ee'],
      ['abcdefg', 0x12345678, 0x9abcdef0, 'd21d1f509383213b'],
      ['medicare', 0, 0, '7138d5a0ea5aa322'],
      ['democrats', 0x12345678, 0x9abcdef0, 'addb1eb17b10715d'],
      ['negotiateable', 0, 0, 'c1bae4e7efbde4f0'],
      ['internationalization', 0, 0, '94dafb4e91e35cab'],
      ['na\u00efve', 0, 0, '0a8220fde817e834'],
      ['\u65e5\u672c\u8a9e', 0x12345678, 0x9abcdef0, '183165a6948d5953'],
      ['a\ud83d\ude00b', 0, 0, 'a7827fe31c96e10d'],
      ['the quick brown fox jumps over the lazy dog', 0, 0, 'e29985a7aef21084'],
      ['the quick brown fox jumps over the lazy dog', 0x12345678, 0x9abcdef0, 'd6f1d9722f747fc3'],
    ];
    for (const [w, pc, pb, want] of vectors) expect(hex(w, pc, pb), w).toBe(want);
  });

  it('hashes a range as it hashes the same text on its own', () => {
    const text = 'xx medicare yy';
    expect(hex(text, 0, 0, 3, 11)).toBe(hex('medicare'));
  });
});

describe('lookup3 bits are balanced (simhash thesis Figure 3-2)', () => {
  // 800,000 distinct features, as the thesis' figure uses.
  const n = 800_000;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const out = new Uint32Array(2);
  for (let i = 0; i < n; i++) {
    const s = `w${i.toString(36)}`;
    lookup3Utf16(s, 0, s.length, 0, 0, out, 0);
    hi[i] = out[0] as number;
    lo[i] = out[1] as number;
  }
  const bit = (i: number, j: number): number => (j < 32 ? ((hi[i] as number) >>> (31 - j)) & 1 : ((lo[i] as number) >>> (63 - j)) & 1);

  it('sets each of the 64 bits in half of the hashes', () => {
    // Binomial(n, 1/2): sd = sqrt(n)/2 = 447; 5 sd is a bound a fair bit crosses with p ~ 6e-7.
    const sd = Math.sqrt(n) / 2;
    for (let j = 0; j < 64; j++) {
      let ones = 0;
      for (let i = 0; i < n; i++) ones += bit(i, j);
      expect(Math.abs(ones - n / 2) / sd, `bit ${j}`).toBeLessThan(5);
    }
  });

  it('spreads the hash values evenly over 256 bins', () => {
    // Figure 3-2's histogram: the top 8 bits as the bin. Chi-square with 255 degrees of
    // freedom: mean 255, sd sqrt(510) = 22.6; 255 + 5 sd = 368.
    const bins = new Float64Array(256);
    for (let i = 0; i < n; i++) {
      const bin = (hi[i] as number) >>> 24;
      bins[bin] = (bins[bin] as number) + 1;
    }
    const e = n / 256;
    const chi2 = bins.reduce((s, o) => s + ((o - e) * (o - e)) / e, 0);
    expect(chi2).toBeLessThan(368);
  });

  it('sets every two bits independently (each of the 2016 pairs both 1 in a quarter)', () => {
    // Binomial(m, 1/4): sd = sqrt(m·3/16); 5.5 sd keeps 2016 tests below a 1e-4 chance of a false alarm.
    const m = 200_000;
    const sd = Math.sqrt((m * 3) / 16);
    let worst = 0;
    for (let j = 0; j < 64; j++) {
      for (let l = j + 1; l < 64; l++) {
        let both = 0;
        for (let i = 0; i < m; i++) both += bit(i, j) & bit(i, l);
        worst = Math.max(worst, Math.abs(both - m / 4) / sd);
      }
    }
    expect(worst).toBeLessThan(5.5);
  });
});
