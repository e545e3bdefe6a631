/**
 * MD5 shingle fingerprints as in Ye et al.: the MD5 digest of the shingle's UTF-8 bytes, all
 * 128 bits. A shingle cut inside a surrogate pair (see `charShingles`) encodes the lone
 * surrogate as U+FFFD, as Node's UTF-8 encoder does; the same text always cuts the same way.
 */
import { hash } from 'node:crypto';

/** The 16-byte MD5 digest of the UTF-8 encoding of `s`. */
export function md5Digest(s: string): Buffer {
  return hash('md5', s, 'buffer');
}

/** Writes the MD5 of `s` as four big-endian uint32 words (most significant first) to out[at..at+4). */
export function md5Into(s: string, out: Uint32Array, at: number): void {
  const digest = md5Digest(s);
  out[at] = digest.readUInt32BE(0);
  out[at + 1] = digest.readUInt32BE(4);
  out[at + 2] = digest.readUInt32BE(8);
  out[at + 3] = digest.readUInt32BE(12);
}
