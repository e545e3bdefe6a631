/**
 * Normalization that remembers where each character came from, for explanations (contract/
 * explain.ts): a shingle of the normalized text is shown as the characters of the original text
 * it was made from. `normalize.ts` is the definition and the fast path; this is a slow
 * reference over one document, and the tests hold its text equal to `normalize`'s. The common
 * case of an explanation, a text that lowers a character to one cut into character shingles with
 * Rabin's fingerprints, is done in one WebAssembly call instead (rabin64-wasm.ts, `wasmCut`
 * below), which the tests hold equal to this module's walk.
 */
import type { FeatureOccurrences } from '../../contract/index.ts';
import { fingerprintWidth, shingleFingerprints, shingleRanges } from './fingerprint.ts';
import { FingerprintNumbering, type Numbering } from './fingerprint-numbering.ts';
import { Fingerprint64Numbering } from './numbering64-wasm.ts';
import { knownDistinct } from './occurrence-sets.ts';
import { rabin64Tables } from './rabin64.ts';
import { cutWasm, WASM_UNITS, type WasmCut } from './rabin64-wasm.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';

const wordChar = /^[\p{L}\p{M}\p{N}]$/u;

export interface NormalizedWithOffsets {
  /** exactly `normalize(text)` */
  readonly normalized: string;
  /**
   * For each code unit k of `normalized`, the original characters it stands for:
   * [from[k], to[k]) (the code point it was lowered from; for a space, the first character of
   * the separators it replaces).
   */
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  /** where each word of `normalized` starts (tokens.ts wordStarts), found by the same walk */
  readonly wordStarts: Uint32Array;
}

/**
 * The original index of every code unit of `text.toLowerCase()`: lowering is done on the whole
 * text (as `normalize` does, so that a final sigma lowers alike) and each code point's share
 * of it is the length of that code point lowered alone, which context never changes.
 */
function loweredOrigins(text: string, lower: string): Origins {
  const origin = new Origins(new Uint32Array(lower.length), new Uint32Array(lower.length));
  const o = lowerPieces(text, lower.length, origin);
  if (o !== lower.length) throw new Error(`offsets: lowering the text piece by piece gave ${o} code units, the whole text ${lower.length}`);
  return origin;
}

/** loweredOrigins' loop: how many code units lowering `text` a code point at a time gives (at most `room` written). A loop alone (normalizeWithOffsets says why). */
function lowerPieces(text: string, room: number, origin: Origins): number {
  const { from, to } = origin;
  let o = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const units = cp > 0xffff ? 2 : 1;
    // ASCII lowers to one unit: the common case skips making a string per character.
    const lowered = cp < 0x80 ? 1 : String.fromCodePoint(cp).toLowerCase().length;
    for (let k = 0; k < lowered && o < room; k++, o++) {
      from[o] = i;
      to[o] = i + units;
    }
    i += units;
  }
  return o;
}

/**
 * The class of each UTF-16 code unit as `normalize` sees it, found when first met (1: a letter,
 * mark or digit, 2: not, 0: not met yet): classifying all 65,536 up front costs about 20 ms, a
 * fifth of `bench explain`'s budget, for the few hundred a mail uses.
 */
const wordUnits = new Uint8Array(0x10000);
function isWordUnit(c: number): boolean {
  let k = wordUnits[c] as number;
  if (k === 0) wordUnits[c] = k = (c < 0xd800 || c > 0xdfff) && wordChar.test(String.fromCharCode(c)) ? 1 : 2;
  return k === 1;
}

/**
 * Only a choice between the two walks, each its own function: V8 optimizes each walk alone when
 * its loop is hot, instead of this function with the ASCII walk inlined, thrown away and compiled
 * again with both once the first text that is not ASCII comes (a run's error step met that:
 * 50–100 ms of compiling for one document). The walks hold only their loops: the arrays are
 * made and the text decoded here, so that compiling a walk compiles no allocation or decoding
 * (the error step runs them cold, its compilations beside it: docs/performance.md).
 */
export function normalizeWithOffsets(text: string): NormalizedWithOffsets {
  return normalizedInto(text, (n) => new WalkInto(new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)));
}

/** normalizeWithOffsets, its offsets written into arrays of at least n elements `room(n)` gives. */
function normalizedInto(text: string, room: (n: number) => WalkInto): NormalizedWithOffsets {
  const lower = text.toLowerCase();
  const n = lower.length;
  const into = room(n);
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(text)) {
    const out = new Uint16Array(n);
    const kept = unicodeWalk(lower, loweredOrigins(text, lower), out, into);
    // Only whole surrogate pairs are kept, so decoding replaces nothing.
    return { normalized: utf16.decode(out.subarray(0, kept.units)), from: into.from.subarray(0, kept.units), to: into.to.subarray(0, kept.units), wordStarts: into.starts.subarray(0, kept.words) };
  }
  const out = Buffer.allocUnsafe(n);
  const kept = asciiWalk(lower, out, into);
  // views, not copies: a document's offsets live only while its shingles are cut
  return { normalized: out.toString('latin1', 0, kept.units), from: into.from.subarray(0, kept.units), to: into.to.subarray(0, kept.units), wordStarts: into.starts.subarray(0, kept.words) };
}

/*
 * What the walks read and write are instances of classes, not object literals: V8 gives literals
 * whose first key is `from` one field descriptor across the process, and other modules' (the
 * sorts', the fingerprint runs') hold numbers there. When a run first made one of those after the
 * walks were compiled, V8 generalized the field and threw both walks' compiled code away, and
 * compiled them again (docs/performance.md, the error step's deoptimizations).
 */

/** For each code unit of the lowered text, the original characters it came from: [from[k], to[k]). */
class Origins {
  constructor(
    readonly from: Uint32Array,
    readonly to: Uint32Array,
  ) {}
}

/** Where a walk writes, beside the code units it keeps: the original characters each stands for, where each word starts. */
class WalkInto {
  constructor(
    readonly from: Uint32Array,
    readonly to: Uint32Array,
    readonly starts: Uint32Array,
  ) {}
}

/** How much a walk kept: code units, and words. */
class Kept {
  constructor(
    readonly units: number,
    readonly words: number,
  ) {}
}

/**
 * normalizeWithOffsets' walk of any text, given lowered and where each lowered unit came from:
 * it keeps the code units `normalize` keeps, a space for each run of separators between words
 * (the tests hold the two texts equal). Made here, not by `normalize`: its class table of all
 * 65,536 code units cost more than the few documents an error sample explains.
 */
function unicodeWalk(lower: string, origin: Origins, out: Uint16Array, into: WalkInto): Kept {
  const { from, to, starts } = into;
  let o = 0;
  let words = 0;
  let pendingSpace = -1;
  for (let i = 0; i < lower.length; ) {
    const c = lower.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < lower.length && (lower.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const units = pair ? 2 : 1;
    // a lone surrogate is a separator, and so is a pair that is not a letter, mark or digit
    const word = pair ? isWordPair(lower, i) : isWordUnit(c);
    if (!word) {
      if (pendingSpace < 0) pendingSpace = i;
      i += units;
      continue;
    }
    const startsWord = pendingSpace >= 0 || o === 0;
    if (pendingSpace >= 0 && o > 0) {
      out[o] = 0x20;
      from[o] = origin.from[pendingSpace] as number;
      to[o++] = origin.to[pendingSpace] as number;
    }
    pendingSpace = -1;
    if (startsWord) starts[words++] = o;
    for (let k = 0; k < units; k++) {
      out[o] = lower.charCodeAt(i + k);
      from[o] = origin.from[i + k] as number;
      to[o++] = origin.to[i + k] as number;
    }
    i += units;
  }
  return new Kept(o, words);
}

/** Whether the surrogate pair at `i` is a letter, mark or digit. */
function isWordPair(lower: string, i: number): boolean {
  return wordChar.test(lower.slice(i, i + 2));
}

/** Decodes the units kept: only whole surrogate pairs are kept, so nothing is replaced. */
const utf16 = new TextDecoder('utf-16le');

/**
 * normalizeWithOffsets' walk of an ASCII text (most mail), given lowered: it lowers unit for
 * unit, so code unit i is [i, i + 1) of the text, and its letters and digits are a–z and 0–9.
 * The same walk, with no map of the lowering (the tests hold its text equal to `normalize`'s).
 */
function asciiWalk(lower: string, out: Uint8Array, into: WalkInto): Kept {
  const { from, to, starts } = into;
  const n = lower.length;
  let o = 0;
  let words = 0;
  let pendingSpace = -1;
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      const startsWord = pendingSpace >= 0 || o === 0;
      if (pendingSpace >= 0 && o > 0) {
        out[o] = 0x20;
        from[o] = pendingSpace;
        to[o++] = pendingSpace + 1;
      }
      pendingSpace = -1;
      if (startsWord) starts[words++] = o;
      out[o] = c;
      from[o] = i;
      to[o++] = i + 1;
    } else if (pendingSpace < 0) pendingSpace = i;
  }
  return new Kept(o, words);
}

/** The original text's range of the normalized range [start, end). */
export function originalRange(n: NormalizedWithOffsets, start: number, end: number): [number, number] {
  if (end <= start) return [n.from[start] ?? 0, n.from[start] ?? 0];
  return [n.from[start] as number, n.to[end - 1] as number];
}

/**
 * A document's shingles as feature occurrences (contract/explain.ts): the fingerprint of each
 * shingle and where it lies in the original text, in text order, duplicates kept. The
 * shingles and fingerprints are `shingleFingerprints`', the very ones the detectors join.
 * Each fingerprint is numbered (`ids`) in a table of the shingling kept for the process
 * (`numbering`), so every document of one shingling is numbered alike; the hex `keys` are made
 * when first read.
 */
export interface ShingleOccurrences extends FeatureOccurrences {
  readonly ids: Uint32Array;
  /** the numbering: `numbering.keys()` holds the fingerprint of id i at words [i · width, (i + 1) · width) */
  readonly numbering: Numbering;
  /** the fingerprint numbered `id`, in hex (fingerprintHex) */
  hexOf(id: number): string;
}

export function shingleOccurrences(text: string, spec: ShingleSpec, kind: FingerprintKind): ShingleOccurrences {
  // An explanation asks for a document's shingles twice (the exact resemblance and the
  // detector's evidence), and a run's error samples ask again for each variant: the last few
  // hundred are kept.
  const key = shinglingKey(spec, kind);
  let kept = recent.get(key);
  if (!kept) recent.set(key, (kept = { numbering: numberingOf(fingerprintWidth(kind)), byText: new Map() }));
  const { byText } = kept;
  const known = byText.get(text);
  if (known) {
    byText.delete(text);
    byText.set(text, known);
    return known;
  }
  const made = cutShingles(text, spec, kind, kept.numbering);
  byText.set(text, made);
  if (byText.size > RECENT) byText.delete(byText.keys().next().value as string);
  return made;
}

/**
 * Documents whose shingles are kept per shingling, the least recently used going first, and
 * the shingling's numbering. The numbering keeps every fingerprint it was given for the life of
 * the process (ids held elsewhere must keep their meaning): 12 bytes a fingerprint of the
 * documents explained, a few megabytes for a run's error samples.
 */
const RECENT = 512;
const recent = new Map<string, { readonly numbering: ShingleNumbering; readonly byText: Map<string, ShingleOccurrences> }>();

/** 64-bit fingerprints (Rabin's, the common case) are numbered in WebAssembly, with each document's distinct set (numbering64-wasm.ts says why). */
type ShingleNumbering = FingerprintNumbering | Fingerprint64Numbering;

function numberingOf(width: number): ShingleNumbering {
  return width === 2 ? new Fingerprint64Numbering(1 << 16) : new FingerprintNumbering(width, 1 << 16);
}

/** A shingling's key in `recent`, made once a spec object (an error sample asks hundreds of times with the same one). */
const shinglingKeys = new WeakMap<ShingleSpec, Map<FingerprintKind, string>>();
function shinglingKey(spec: ShingleSpec, kind: FingerprintKind): string {
  let byKind = shinglingKeys.get(spec);
  if (!byKind) shinglingKeys.set(spec, (byKind = new Map()));
  let key = byKind.get(kind);
  if (key === undefined) byKind.set(kind, (key = `${JSON.stringify(spec)}:${kind}`));
  return key;
}

/** Feature occurrences whose hex keys are made when first read (FeatureOccurrences.ids). */
class NumberedOccurrences implements ShingleOccurrences {
  private hex: string[] | undefined;

  constructor(
    readonly ids: Uint32Array,
    readonly starts: Uint32Array,
    readonly ends: Uint32Array,
    readonly numbering: Numbering,
  ) {}

  get keys(): readonly string[] {
    return (this.hex ??= Array.from(this.ids, (id) => this.hexOf(id)));
  }

  hexOf(id: number): string {
    return this.numbering.hexOf(id);
  }
}

/**
 * Offset arrays reused from one document's cut to the next: its offsets live only while its
 * shingles are cut, and an error sample cuts hundreds of documents (12 bytes a character made
 * and zeroed each time otherwise). Past OFFSETS_CAP elements a document's are not kept.
 */
let offsetScratch = new WalkInto(new Uint32Array(1 << 14), new Uint32Array(1 << 14), new Uint32Array(1 << 14));
const OFFSETS_CAP = 1 << 22;

function scratchOffsets(n: number): WalkInto {
  if (n <= offsetScratch.from.length) return offsetScratch;
  const size = Math.max(n, 2 * offsetScratch.from.length);
  const grown = new WalkInto(new Uint32Array(size), new Uint32Array(size), new Uint32Array(size));
  if (size <= OFFSETS_CAP) offsetScratch = grown;
  return grown;
}

function cutShingles(text: string, spec: ShingleSpec, kind: FingerprintKind, numbering: ShingleNumbering): ShingleOccurrences {
  const inWasm = spec.unit === 'char' && kind === 'rabin64' && text.length <= WASM_UNITS ? wasmCut(text, spec.size) : undefined;
  if (inWasm) return new NumberedOccurrences(numbered({ width: 2, data: inWasm.fingerprints, count: inWasm.starts.length }, numbering), inWasm.starts, inWasm.ends, numbering);
  const n = normalizedInto(text, scratchOffsets);
  const fps = shingleFingerprints(n.normalized, spec, kind);
  const starts = new Uint32Array(fps.count);
  const ends = new Uint32Array(fps.count);
  // A character shingle of a text as long as one starts at each word of it and is `size` long
  // (fingerprint.ts charRanges): its ends need not be made.
  const charWindows = spec.unit === 'char' && n.normalized.length >= spec.size;
  const ranges = charWindows ? { starts: n.wordStarts, ends: undefined } : shingleRanges(n.normalized, spec);
  const shingles = charWindows ? windowsAt(ranges.starts, spec.size, n.normalized.length) : ranges.starts.length;
  if (fps.count !== shingles) throw new Error(`offsets: ${fps.count} fingerprints for ${shingles} shingles`);
  originalRanges(n, { starts: ranges.starts, ends: ranges.ends, size: spec.size }, { starts, ends });
  return new NumberedOccurrences(numbered(fps, numbering), starts, ends, numbering);
}

/**
 * The common case, a text that lowers a character to one, each one code unit (all mail of the
 * bundled corpus), cut into character shingles with Rabin's fingerprints in WebAssembly
 * (rabin64-wasm.ts cutWasm: this module's walk, the roll and the original ranges in one pass,
 * the same results; the tests hold the cuts equal). An error sample cuts a few hundred documents
 * in a process where that code never ran: in JavaScript the walks and the roll ran mostly before
 * V8 had compiled them (docs/performance.md, the error step). Undefined for a text with a
 * surrogate or a character that lowers to more than one, or that normalizes to fewer than
 * `size` characters.
 */
function wasmCut(text: string, size: number): WasmCut | undefined {
  if (SURROGATE.test(text)) return undefined;
  const lower = text.toLowerCase();
  // A text of single code units lowers a character to one exactly when the lengths agree (none
  // lowers to nothing): the origins the walk gives need it, checked, not assumed.
  if (lower.length !== text.length) return undefined;
  const classes = (cutClasses ??= oneByteClasses());
  const wide = MULTI_BYTE.test(lower);
  // Units above U+00FF are classed when first met (isWordUnit says why).
  if (wide) for (const m of lower.matchAll(MULTI_BYTES)) classes[m[0].charCodeAt(0)] = isWordUnit(m[0].charCodeAt(0)) ? 1 : 0;
  return cutWasm(lower, rabin64Tables(size), classes, { wide });
}

// eslint-disable-next-line no-control-regex
const MULTI_BYTE = /[^\u0000-\u00ff]/;
// eslint-disable-next-line no-control-regex
const MULTI_BYTES = /[^\u0000-\u00ff]/g;
const SURROGATE = /[\ud800-\udfff]/;
/** isWordUnit of each code unit as 1 or 0, for the cuts in WebAssembly: the one-byte ones made when first needed, the others when first met */
let cutClasses: Uint8Array | undefined;

function oneByteClasses(): Uint8Array {
  const classes = new Uint8Array(0x10000);
  for (let c = 0; c < 0x100; c++) classes[c] = isWordUnit(c) ? 1 : 0;
  return classes;
}

/*
 * cutShingles' loops are small functions of their own: V8 optimizes each alone when its loop is
 * hot (docs/performance.md, the error step's compilation).
 */

/** How many of the words starting at `starts` (ascending) begin a window of `size` within `length` (charRanges' count). */
function windowsAt(starts: Uint32Array, size: number, length: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((starts[mid] as number) + size <= length) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each fingerprint's number in `numbering` (and, for 64-bit ones, the document's distinct set, made in the same pass). */
function numbered(fps: { readonly width: number; readonly data: Uint32Array; readonly count: number }, numbering: ShingleNumbering): Uint32Array {
  if (numbering instanceof Fingerprint64Numbering) {
    const made = numbering.number(fps.data, fps.count);
    knownDistinct(made.ids, made.distinct);
    return made.ids;
  }
  const ids = new Uint32Array(fps.count);
  for (let k = 0; k < ids.length; k++) ids[k] = numbering.id(fps.data, k * fps.width);
  return ids;
}

/** originalRange of each shingle into `out` (`ends` absent: each is `size` long), without an array a shingle. */
function originalRanges(n: NormalizedWithOffsets, shingles: { readonly starts: Uint32Array; readonly ends: Uint32Array | undefined; readonly size: number }, out: { readonly starts: Uint32Array; readonly ends: Uint32Array }): void {
  const { from, to } = n;
  const { starts: s, ends: e, size } = shingles;
  for (let k = 0; k < out.starts.length; k++) {
    const start = s[k] as number;
    const end = e ? (e[k] as number) : start + size;
    out.starts[k] = from[start] ?? 0;
    out.ends[k] = end <= start ? (from[start] ?? 0) : (to[end - 1] as number);
  }
}
