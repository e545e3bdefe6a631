/**
 * Shingle fingerprints for the algorithms: one fixed-width number per shingle, packed in a
 * Uint32Array so that a document's million fingerprints are one allocation, not a million
 * strings. The shingles are exactly those of `shingles.ts` (the readable reference), so
 * `shingleFingerprints(t, spec, k)` equals `charShingles`/`wordShingles` mapped through
 * `fingerprintOf`; the tests hold the two to that.
 *
 * Input is normalized text (`normalize.ts`): words separated by single spaces.
 */
import type { FingerprintKind, ShingleSpec } from './params.ts';
import { md5Into } from './md5.ts';
import { rabin64Range, rabin64WordWindows } from './rabin64.ts';
import { assertSize } from './shingles.ts';
import { wordStarts } from './tokens.ts';

/** `width` uint32 words per fingerprint, most significant first: 2 for rabin64, 4 for md5. */
export interface Fingerprints {
  readonly width: 2 | 4;
  readonly data: Uint32Array;
  readonly count: number;
}

const SPACE = 0x20;
const TWO_POW_32 = 4294967296;
/** Largest modulus for which Horner's rule over 32-bit words stays below 2^53 (exact doubles). */
const MAX_MODULUS = 2 ** 21;

export function fingerprintWidth(kind: FingerprintKind): 2 | 4 {
  return kind === 'rabin64' ? 2 : 4;
}

/** One fingerprint per shingle of `normalized`, in text order, duplicates kept. */
export function shingleFingerprints(normalized: string, spec: ShingleSpec, kind: FingerprintKind): Fingerprints {
  assertSize(spec.size, spec.unit === 'char' ? 'n' : 'w');
  const len = normalized.length;
  if (spec.unit === 'char' && kind === 'rabin64' && len >= spec.size) return rollingCharFingerprints(normalized, spec.size);
  const { starts, ends } = spec.unit === 'char' ? charRanges(normalized, spec.size) : wordRanges(normalized, spec.size);
  const width = fingerprintWidth(kind);
  const count = starts.length;
  const data = new Uint32Array(width * count);
  for (let k = 0; k < count; k++) {
    if (kind === 'rabin64') rabin64Range(normalized, starts[k]!, ends[k]!, data, 2 * k);
    else md5Into(normalized.slice(starts[k]!, ends[k]!), data, 4 * k);
  }
  return { width, data, count };
}

/**
 * Scratch space for the rolling pass, reused across documents: it must hold one fingerprint
 * per word start before we know how many windows fit, and the result is copied out exactly.
 */
let scratch = new Uint32Array(1 << 16);
/** Above this many uint32s a document's scratch space is not kept for the next one. */
const SCRATCH_CAP = 1 << 23;

function rollingCharFingerprints(normalized: string, n: number): Fingerprints {
  // a word start needs a non-space, and all but the first follow a space: at most ⌈len/2⌉
  const room = 2 * (Math.ceil(normalized.length / 2) + 1);
  const out = room <= scratch.length ? scratch : new Uint32Array(room);
  if (out !== scratch && room <= SCRATCH_CAP) scratch = out;
  const count = rabin64WordWindows(normalized, n, out);
  return { width: 2, data: out.slice(0, 2 * count), count };
}

/** [start, end) of each shingle. */
export interface ShingleRanges {
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/**
 * Where each shingle of `normalized` lies, in text order, duplicates kept: exactly the shingles
 * of `charShingles`/`wordShingles`, for callers that hash the ranges themselves (simhash).
 */
export function shingleRanges(normalized: string, spec: ShingleSpec): ShingleRanges {
  assertSize(spec.size, spec.unit === 'char' ? 'n' : 'w');
  return spec.unit === 'char' ? charRanges(normalized, spec.size) : wordRanges(normalized, spec.size);
}

function charRanges(normalized: string, n: number): ShingleRanges {
  const len = normalized.length;
  if (len === 0) return { starts: new Uint32Array(0), ends: new Uint32Array(0) };
  if (len < n) return { starts: Uint32Array.of(0), ends: Uint32Array.of(len) };
  const firsts = wordStarts(normalized);
  let count = 0;
  while (count < firsts.length && firsts[count]! + n <= len) count++;
  const starts = firsts.subarray(0, count);
  return { starts, ends: starts.map((start) => start + n) };
}

function wordRanges(normalized: string, w: number): ShingleRanges {
  const firsts = wordStarts(normalized);
  const words = firsts.length;
  const count = words === 0 ? 0 : Math.max(1, words - w + 1);
  const starts = firsts.subarray(0, count);
  const ends = new Uint32Array(count);
  for (let k = 0; k < count; k++) ends[k] = wordEnd(normalized, firsts, Math.min(k + w, words) - 1);
  return { starts, ends };
}

/** Offset just past word `j`: back from the next word's start (or the end) over the spaces. */
function wordEnd(normalized: string, firsts: Uint32Array, j: number): number {
  let end = j + 1 < firsts.length ? firsts[j + 1]! : normalized.length;
  while (end > 0 && normalized.charCodeAt(end - 1) === SPACE) end--;
  return end;
}

/** The fingerprint of one shingle string: the reference that `shingleFingerprints` must match. */
export function fingerprintOf(shingle: string, kind: FingerprintKind): Uint32Array {
  const out = new Uint32Array(fingerprintWidth(kind));
  if (kind === 'rabin64') rabin64Range(shingle, 0, shingle.length, out, 0);
  else md5Into(shingle, out, 0);
  return out;
}

/**
 * The fingerprint at `index`, read as one unsigned integer (64 or 128 bits), modulo m, exactly,
 * for integer 1 <= m <= 2^21: Horner's rule over the 32-bit words keeps every intermediate
 * below 2^21 · 2^32 < 2^53, where doubles are exact.
 */
export function fingerprintMod(fps: Fingerprints | Uint32Array, index: number, width: 2 | 4, m: number): number {
  const data = fps instanceof Uint32Array ? fps : fps.data;
  if (!(fps instanceof Uint32Array) && fps.width !== width) {
    throw new RangeError(`fingerprintMod: width ${width} given for fingerprints of width ${fps.width}`);
  }
  if (!Number.isInteger(m) || m < 1 || m > MAX_MODULUS) {
    throw new RangeError(`fingerprintMod: modulus must be an integer in [1, 2^21], got ${m}`);
  }
  const base = checkedBase(data, index, width);
  if ((m & (m - 1)) === 0) return data[base + width - 1]! & (m - 1);
  let acc = 0;
  for (let k = 0; k < width; k++) acc = (acc * TWO_POW_32 + data[base + k]!) % m;
  return acc;
}

/** The fingerprint at `index` as 16 (rabin64) or 32 (md5) lowercase hex digits. */
export function fingerprintHex(data: Uint32Array, index: number, width: 2 | 4): string {
  const base = checkedBase(data, index, width);
  // Four table lookups per 32-bit word: the text jobs write millions of these keys.
  const t = HEX4 ?? (HEX4 = hexTable());
  let hex = '';
  for (let k = 0; k < width; k++) {
    const w = data[base + k] as number;
    hex += (t[w >>> 16] as string) + (t[w & 0xffff] as string);
  }
  return hex;
}

/** The 4-digit lowercase hex string of every 16-bit value. */
let HEX4: string[] | undefined;
function hexTable(): string[] {
  const t = new Array<string>(65536);
  for (let i = 0; i < 65536; i++) t[i] = i.toString(16).padStart(4, '0');
  return t;
}

function checkedBase(data: Uint32Array, index: number, width: number): number {
  if (!Number.isInteger(index) || index < 0 || (index + 1) * width > data.length) {
    throw new RangeError(`fingerprint index ${index} out of range for ${data.length / width} fingerprints`);
  }
  return index * width;
}
