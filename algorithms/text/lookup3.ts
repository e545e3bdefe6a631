/**
 * Bob Jenkins' lookup3 `hashlittle2` (2006, public domain), the hash the simhash thesis uses for
 * its features (Seshasai 2009, §3.2): two 32-bit values for the price of one, `c` the better
 * mixed. Here it hashes a range of a string as its UTF-16LE bytes, reading two code units per
 * 32-bit word straight from `charCodeAt`, so a feature is hashed without building a substring or
 * encoding it. For a string of code units that is byte for byte what the C code computes on the
 * UTF-16LE encoding; the tests hold it to Jenkins' own driver5 vectors and to an independent
 * Python reference.
 *
 * Only 32-bit integer operations: `| 0` keeps every sum in int32, `>>>` gives the unsigned result.
 */

/** rot(x, k) of lookup3.c */
function rot(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * hashlittle2 of the UTF-16LE bytes of `s.slice(start, end)` with seeds (pc, pb); writes c and b
 * (unsigned) to `out[at]` and `out[at + 1]`: read as one 64-bit value, c is the high word.
 */
export function lookup3Utf16(s: string, start: number, end: number, pc: number, pb: number, out: Uint32Array, at: number): void {
  let length = (end - start) * 2;
  let a = (0xdeadbeef + length + pc) | 0;
  let b = a;
  let c = (a + pb) | 0;
  let i = start;
  while (length > 12) {
    a = (a + (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16))) | 0;
    b = (b + (s.charCodeAt(i + 2) | (s.charCodeAt(i + 3) << 16))) | 0;
    c = (c + (s.charCodeAt(i + 4) | (s.charCodeAt(i + 5) << 16))) | 0;
    // mix(a, b, c)
    a = (a - c) | 0; a ^= rot(c, 4); c = (c + b) | 0;
    b = (b - a) | 0; b ^= rot(a, 6); a = (a + c) | 0;
    c = (c - b) | 0; c ^= rot(b, 8); b = (b + a) | 0;
    a = (a - c) | 0; a ^= rot(c, 16); c = (c + b) | 0;
    b = (b - a) | 0; b ^= rot(a, 19); a = (a + c) | 0;
    c = (c - b) | 0; c ^= rot(b, 4); b = (b + a) | 0;
    length -= 12;
    i += 6;
  }
  // The last block: 0 to 12 bytes, always even here, zero-padded little-endian words.
  switch (length) {
    case 12:
      c = (c + (s.charCodeAt(i + 4) | (s.charCodeAt(i + 5) << 16))) | 0;
    // falls through
    case 8:
      b = (b + (s.charCodeAt(i + 2) | (s.charCodeAt(i + 3) << 16))) | 0;
    // falls through
    case 4:
      a = (a + (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16))) | 0;
      break;
    case 10:
      c = (c + s.charCodeAt(i + 4)) | 0;
      b = (b + (s.charCodeAt(i + 2) | (s.charCodeAt(i + 3) << 16))) | 0;
      a = (a + (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16))) | 0;
      break;
    case 6:
      b = (b + s.charCodeAt(i + 2)) | 0;
      a = (a + (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16))) | 0;
      break;
    case 2:
      a = (a + s.charCodeAt(i)) | 0;
      break;
    case 0:
      // zero-length keys need no mixing
      out[at] = c >>> 0;
      out[at + 1] = b >>> 0;
      return;
  }
  // final(a, b, c)
  c ^= b; c = (c - rot(b, 14)) | 0;
  a ^= c; a = (a - rot(c, 11)) | 0;
  b ^= a; b = (b - rot(a, 25)) | 0;
  c ^= b; c = (c - rot(b, 16)) | 0;
  a ^= c; a = (a - rot(c, 4)) | 0;
  b ^= a; b = (b - rot(a, 14)) | 0;
  c ^= b; c = (c - rot(b, 24)) | 0;
  out[at] = c >>> 0;
  out[at + 1] = b >>> 0;
}
