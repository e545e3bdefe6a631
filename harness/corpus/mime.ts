/**
 * The MIME part tree of a raw RFC 822 message, built exactly as postal-mime 4 builds it
 * (its `MimeNode` tree: where parts begin and end, their Content-Type, Content-Disposition and
 * transfer-decoded bytes) but about ten times faster on the bundled corpus, for two measured
 * reasons: postal-mime gathers every part's bytes in a `Blob` and reads them back through
 * `Blob.arrayBuffer()`, which costs about two thirds of its time in Node 20 (3.9 of 5.9
 * CPU-seconds on the 6,046 messages); and it awaits once per line and renders, address-parses
 * and decodes much that the reader never uses. This module does only what mail.ts reads, in one
 * synchronous pass over the bytes.
 *
 * postal-mime stays the reference (as warcio is for warc.ts): mime.test.ts checks, part for part,
 * that both give the same tree on the bundled corpus, on the fixtures and on mutated messages.
 * Where this module would have to reproduce rarely used machinery, it declines instead and the
 * caller uses postal-mime (`parseMime` returns undefined): RFC 2231 parameter continuations or
 * charsets (`name*0=`, `name*=`), more than 256 nested parts, more than 2 MiB of headers (the
 * last two are postal-mime's limits, whose errors the caller reports).
 *
 * The algorithms below follow postal-mime's src/mime-node.ts and postal-mime.ts (MIT-0,
 * Andris Reinman), to which the comments refer by function name.
 */

/**
 * One part, in the shape of postal-mime's MimeNode as far as mail.ts reads it. Of the
 * Content-Type parameters only `boundary` and `charset` are certain to be postal-mime's (see
 * parseStructuredHeader).
 */
export interface MimePart {
  readonly contentType: {
    readonly parsed: { readonly value: string; readonly params: Readonly<Record<string, string>> };
    readonly multipart: string | false;
  };
  readonly contentDisposition: { readonly parsed: { readonly value: string } };
  /** Transfer-decoded bytes of a leaf part; null for a part that never ended its headers in an empty message, and for multiparts (their preamble is not kept). */
  readonly content: Uint8Array | null;
  readonly childNodes: readonly MimePart[];
}

export interface MimeHeader {
  /** lower-cased field name */
  readonly key: string;
  /** unfolded value, white space at both ends trimmed, encoded words not decoded */
  readonly value: string;
}

export interface MimeMessage {
  /** The top-level headers in order (postal-mime's `email.headers`). */
  readonly headers: readonly MimeHeader[];
  readonly root: MimePart;
}

/** postal-mime's limits: past them it throws, and the caller lets it. */
const MAX_NESTING_DEPTH = 256;
const MAX_HEADERS_SIZE = 2 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;
const EQUALS = 0x3d;

/** Thrown inside this module when the message needs postal-mime; never escapes `parseMime`. */
class Declined extends Error {}

const headerDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const textEncoder = new TextEncoder();

function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! > 0x7f) return false;
  return true;
}

/** A header line as postal-mime decodes it (UTF-8, invalid bytes as U+FFFD, a BOM kept). */
function headerLine(bytes: Buffer, start: number, end: number): string {
  if (isAscii(bytes, start, end)) return bytes.toString('latin1', start, end);
  return headerDecoder.decode(bytes.subarray(start, end));
}

const isWsp = (c: number): boolean => c === 0x20 || c === 0x09;

/** Only SP and HTAB, as RFC 5322 (postal-mime's trimWsp). */
function trimWsp(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isWsp(s.charCodeAt(start))) start++;
  while (end > start && isWsp(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** RFC 822 comments out of a structured header value (postal-mime's stripComments). */
export function stripComments(str: string): string {
  if (!str.includes('(')) {
    // Without a `(` nothing is removed: the loop below would copy the string as it is.
    return str;
  }
  let result = '';
  let depth = 0;
  let escaped = false;
  let inQuote = false;
  let commentStart = -1;
  let inParameterValue = false;
  let endsWithWsp = false;
  const append = (c: string): void => {
    result += c;
    endsWithWsp = c === ' ' || c === '\t';
  };
  // Inside a parameter value a `(` opens a comment only after white space (`Invoice(1).pdf`).
  const opensComment = (): boolean => !inParameterValue || !result.length || endsWithWsp;
  for (let i = 0; i < str.length; i++) {
    const chr = str.charAt(i);
    if (escaped) {
      if (depth === 0) append(chr);
      escaped = false;
      continue;
    }
    if (chr === '\\') {
      escaped = true;
      if (depth === 0) append(chr);
      continue;
    }
    if (chr === '"' && depth === 0) {
      inQuote = !inQuote;
      append(chr);
      continue;
    }
    if (!inQuote) {
      if (chr === '(' && opensComment()) {
        if (depth === 0) commentStart = i;
        depth++;
        continue;
      }
      if (chr === ')' && depth > 0) {
        depth--;
        continue;
      }
      if (depth === 0) {
        if (chr === '=') inParameterValue = true;
        else if (chr === ';') inParameterValue = false;
      }
    }
    if (depth === 0) append(chr);
  }
  if (depth === 0) return result;
  // An unbalanced `(` is not a comment when a parameter follows it.
  return str.indexOf(';', commentStart) < 0 ? result : str;
}

export interface StructuredHeader {
  value: string;
  params: Record<string, string>;
}

/** A RFC 2231 continuation or charset parameter (`name*`, `name*0`, `name*0*`), which postal-mime decodes and this module does not. */
const CONTINUATION = /\*((\d+)\*?)?$/;

/**
 * `type/subtype; name=value; …` (postal-mime's parseStructuredHeader). RFC 2231 sections
 * (`name*0=`, `name*=charset''…`) are not decoded: when one of them is a parameter in
 * `relevant`, which postal-mime would decode (and which would then override a plain parameter
 * of the same name), the message is declined; the sections of other parameters (an
 * attachment's `filename*`) are left as they are, since nothing reads them.
 */
export function parseStructuredHeader(input: string, relevant: readonly string[] = []): StructuredHeader {
  const str = stripComments(input);
  const response: StructuredHeader = { value: '', params: {} };
  let key: string | false = false;
  let value = '';
  let stage: 'key' | 'value' = 'value';
  // White space outside quotes is held back until a significant character follows.
  let pendingSpace = '';
  let quoteClosed = false;
  let quote: string | false = false;
  let escaped = false;
  const addChr = (c: string): void => {
    if (value.length) value += pendingSpace;
    pendingSpace = '';
    value += c;
  };
  const takeValue = (): string => {
    const result = value;
    value = '';
    pendingSpace = '';
    quoteClosed = false;
    return result;
  };
  // The first of duplicated parameters wins.
  const storeParam = (name: string, result: string): void => {
    if (!Object.prototype.hasOwnProperty.call(response.params, name)) response.params[name] = result;
  };
  const storeValue = (): void => {
    const result = takeValue();
    if (key === false) response.value = result;
    else storeParam(key, result);
  };
  const storeEmptyKey = (): void => {
    const name = takeValue().trim();
    if (name) storeParam(name.toLowerCase(), '');
  };
  for (let i = 0, len = str.length; i < len; i++) {
    const chr = str.charAt(i);
    if (stage === 'key') {
      if (chr === '=') {
        key = takeValue().trim().toLowerCase();
        stage = 'value';
      } else if (chr === ';') {
        storeEmptyKey();
      } else {
        value += chr;
      }
      continue;
    }
    if (escaped) {
      addChr(chr);
    } else if (quote && chr === '\\') {
      escaped = true;
      continue;
    } else if (quote && chr === quote) {
      quote = false;
      quoteClosed = true;
    } else if (!quote && chr === '"') {
      quote = chr;
      if (value.length) value += pendingSpace;
      pendingSpace = '';
    } else if (!quote && chr === ';') {
      storeValue();
      stage = 'key';
    } else if (!quote && (chr === ' ' || chr === '\t')) {
      pendingSpace += chr;
    } else if (!quoteClosed) {
      addChr(chr);
    }
    escaped = false;
  }
  if (stage === 'value') storeValue();
  else storeEmptyKey();
  if (response.value) response.value = response.value.toLowerCase();
  for (const k of Object.keys(response.params)) {
    const m = CONTINUATION.exec(k);
    if (m && relevant.includes(k.slice(0, m.index))) throw new Declined(`RFC 2231 parameter ${k}`);
  }
  return response;
}

/** Transfer decoding of one part's body lines (postal-mime's decoders, on byte ranges). */
interface BodyDecoder {
  update(bytes: Uint8Array, start: number, end: number): void;
  finalize(): Uint8Array;
}

/** A growable byte buffer. */
class Bytes {
  buf = new Uint8Array(256);
  length = 0;
  reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  push(b: number): void {
    this.reserve(1);
    this.buf[this.length++] = b;
  }
  append(bytes: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    if (n < 64) {
      // A view per short line costs more than copying its bytes one by one.
      const buf = this.buf;
      let at = this.length;
      for (let i = start; i < end; i++) buf[at++] = bytes[i]!;
    } else {
      this.buf.set(bytes.subarray(start, end), this.length);
    }
    this.length += n;
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** 7bit, 8bit, binary and unknown encodings: every line and a LF after it. */
class PassThroughDecoder implements BodyDecoder {
  /** The lines' ranges in `bytes` (always the same message), copied once at the end. */
  private bytes: Uint8Array | undefined;
  private readonly ranges: number[] = [];
  private total = 0;
  update(bytes: Uint8Array, start: number, end: number): void {
    this.bytes = bytes;
    this.ranges.push(start, end);
    this.total += end - start + 1;
  }
  finalize(): Uint8Array {
    const out = new Uint8Array(this.total);
    const r = this.ranges;
    const bytes = this.bytes;
    let at = 0;
    for (let i = 0; i < r.length; i += 2) {
      const start = r[i]!;
      const end = r[i + 1]!;
      if (end - start < 64) for (let k = start; k < end; k++) out[at++] = bytes![k]!;
      else {
        out.set(bytes!.subarray(start, end), at);
        at += end - start;
      }
      out[at++] = LF;
    }
    return out;
  }
}

function hexNibble(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Quoted-printable: `=XX` escapes, a trailing `=` a soft line break, invalid escapes kept as text. */
class QuotedPrintableDecoder implements BodyDecoder {
  private readonly out = new Bytes();
  update(line: Uint8Array, start: number, end: number): void {
    let len = end;
    const softBreak = len > start && line[len - 1] === EQUALS;
    if (softBreak) len--;
    let literalStart = start;
    for (let i = start; i < len; i++) {
      if (line[i] !== EQUALS || i + 2 >= len) continue;
      const high = hexNibble(line[i + 1]!);
      const low = hexNibble(line[i + 2]!);
      if (high < 0 || low < 0) continue;
      this.out.append(line, literalStart, i);
      this.out.push((high << 4) | low);
      i += 2;
      literalStart = i + 1;
    }
    this.out.append(line, literalStart, len);
    if (!softBreak) this.out.push(LF);
  }
  finalize(): Uint8Array {
    return this.out.result();
  }
}

/** Base64 alphabet values; -1 for every other byte (dropped), -2 for `=`. */
const BASE64 = new Int8Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[c.charCodeAt(0)] = i;
BASE64[EQUALS] = -2;

/**
 * Base64 as postal-mime decodes it: bytes outside the alphabet are dropped, a run of `=` ends
 * a unit (mailers that pad every line write several units), and a unit's last partial group
 * gives as many whole bytes as its characters hold (one character gives none).
 */
class Base64Decoder implements BodyDecoder {
  private readonly out = new Bytes();
  /** characters of the current group and their count */
  private group = 0;
  private count = 0;
  update(line: Uint8Array, start: number, end: number): void {
    this.out.reserve(((end - start) * 3) >> 2);
    for (let i = start; i < end; i++) {
      const v = BASE64[line[i]!]!;
      if (v === -1) continue;
      if (v === -2) {
        this.endUnit();
        continue;
      }
      this.group = (this.group << 6) | v;
      if (++this.count === 4) {
        const g = this.group;
        this.out.push((g >> 16) & 0xff);
        this.out.push((g >> 8) & 0xff);
        this.out.push(g & 0xff);
        this.group = 0;
        this.count = 0;
      }
    }
  }
  private endUnit(): void {
    if (this.count === 2) {
      this.out.push((this.group >> 4) & 0xff);
    } else if (this.count === 3) {
      this.out.push((this.group >> 10) & 0xff);
      this.out.push((this.group >> 2) & 0xff);
    }
    this.group = 0;
    this.count = 0;
  }
  finalize(): Uint8Array {
    this.endUnit();
    return this.out.result();
  }
}

/** A multipart's preamble and epilogue are never read: dropped. */
class DiscardDecoder implements BodyDecoder {
  update(): void {}
  finalize(): Uint8Array {
    return new Uint8Array(0);
  }
}

/** The Content-Type parameters that decide how a part is read: its boundary and its charset. */
const TYPE_PARAMETERS = ['boundary', 'charset'];
const CONTENT_HEADERS = new Set(['content-type', 'content-transfer-encoding', 'content-disposition']);

class Part implements MimePart {
  state: 'header' | 'body' | 'finished' = 'header';
  readonly headerLines: string[] = [];
  headers: MimeHeader[] = [];
  contentType: { parsed: StructuredHeader; multipart: string | false };
  contentDisposition: { parsed: StructuredHeader } = { parsed: { value: '', params: {} } };
  content: Uint8Array | null = null;
  readonly childNodes: Part[] = [];
  finalizedChildCount = 0;
  decoder: BodyDecoder | null = null;
  readonly depth: number;
  private typeValue: string;
  private dispositionValue = '';
  private encodingValue = '8bit';

  constructor(
    private readonly parser: Parser,
    readonly parentNode: Part | undefined,
  ) {
    this.depth = parentNode ? parentNode.depth + 1 : 0;
    if (this.depth > MAX_NESTING_DEPTH) throw new Declined('nesting depth');
    parentNode?.childNodes.push(this);
    // RFC 2046 5.1.5: the parts of a multipart/digest are messages unless they say otherwise.
    this.typeValue = parentNode?.contentType.multipart === 'digest' ? 'message/rfc822' : 'text/plain';
    this.contentType = { parsed: { value: this.typeValue, params: {} }, multipart: false };
  }

  feed(bytes: Buffer, start: number, end: number): void {
    if (this.state === 'header') {
      if (end === start) {
        this.state = 'body';
        this.processHeaders();
        return;
      }
      this.parser.headerSize += end - start;
      if (this.parser.headerSize > MAX_HEADERS_SIZE) throw new Declined('header size');
      this.headerLines.push(headerLine(bytes, start, end));
    } else if (this.state === 'body') {
      this.decoder?.update(bytes, start, end);
    }
  }

  /** postal-mime's processHeaders: fold, take the first of each content header, set up the decoder. */
  processHeaders(): void {
    const folded: string[][] = [];
    for (const line of this.headerLines) {
      const c = line.charCodeAt(0);
      if (folded.length && (c === 0x20 || c === 0x09)) folded[folded.length - 1]!.push(line);
      else folded.push([line]);
    }
    const seen = new Set<string>();
    const keepAll = this.parentNode === undefined;
    for (const parts of folded) {
      const unfolded = parts.length === 1 ? parts[0]! : parts.join('');
      const sep = unfolded.indexOf(':');
      const key = trimWsp(sep < 0 ? unfolded : unfolded.slice(0, sep)).toLowerCase();
      if (!keepAll && !CONTENT_HEADERS.has(key)) continue;
      const rest = sep < 0 ? '' : unfolded.slice(sep + 1);
      // A bare CR inside a line becomes a space; lines never hold a LF.
      const value = trimWsp(rest.includes('\r') ? rest.replace(/[\r\n]+/g, ' ') : rest);
      if (keepAll) this.headers.push({ key, value });
      if (!CONTENT_HEADERS.has(key) || seen.has(key)) continue;
      seen.add(key);
      if (key === 'content-type') this.typeValue = value;
      else if (key === 'content-disposition') this.dispositionValue = value;
      else this.encodingValue = value;
    }
    this.headerLines.length = 0;
    const parsed = parseStructuredHeader(this.typeValue, TYPE_PARAMETERS);
    const multipart = /^multipart\//i.test(parsed.value) ? parsed.value.slice(parsed.value.indexOf('/') + 1) : false;
    this.contentType = { parsed, multipart };
    if (multipart && parsed.params['boundary']) {
      this.parser.boundaries.push({ value: textEncoder.encode(parsed.params['boundary']), node: this });
    }
    this.contentDisposition = { parsed: parseStructuredHeader(this.dispositionValue) };
    const encoding = (stripComments(this.encodingValue).toLowerCase().match(/[\w-]+/) ?? [''])[0];
    if (multipart) this.decoder = new DiscardDecoder();
    else if (/base64/i.test(encoding)) this.decoder = new Base64Decoder();
    else if (/quoted-printable/i.test(encoding)) this.decoder = new QuotedPrintableDecoder();
    else this.decoder = new PassThroughDecoder();
  }

  finalize(): void {
    if (this.state === 'finished') return;
    if (this.state === 'header') this.processHeaders();
    const boundaries = this.parser.boundaries;
    for (let i = boundaries.length - 1; i >= 0; i--) {
      if (boundaries[i]!.node === this) {
        boundaries.splice(i, 1);
        break;
      }
    }
    this.finalizeChildNodes();
    this.content = this.decoder && !this.contentType.multipart ? this.decoder.finalize() : null;
    this.decoder = null;
    this.state = 'finished';
  }

  finalizeChildNodes(): void {
    while (this.finalizedChildCount < this.childNodes.length) this.childNodes[this.finalizedChildCount++]!.finalize();
  }
}

interface Boundary {
  readonly value: Uint8Array;
  readonly node: Part;
}

class Parser {
  headerSize = 0;
  readonly boundaries: Boundary[] = [];
  readonly root: Part;
  current: Part;

  constructor() {
    this.root = this.current = new Part(this, undefined);
  }

  /** The boundary that line [start, end) is a delimiter of, and whether it is the closing one. */
  private delimiter(bytes: Uint8Array, start: number, end: number): { boundary: Boundary; last: boolean } | undefined {
    const len = end - start;
    for (let i = this.boundaries.length - 1; i >= 0; i--) {
      const boundary = this.boundaries[i]!;
      const b = boundary.value;
      if (len < b.length + 2) continue;
      let j = 0;
      while (j < b.length && bytes[start + 2 + j] === b[j]) j++;
      if (j < b.length) continue;
      let at = start + b.length + 2;
      const last = len >= b.length + 4 && bytes[at] === DASH && bytes[at + 1] === DASH;
      if (last) at += 2;
      // RFC 2046: white space may follow the boundary.
      while (at < end && isWsp(bytes[at]!)) at++;
      if (at < end) continue;
      return { boundary, last };
    }
    return undefined;
  }

  line(bytes: Buffer, start: number, end: number, isFinal: boolean): void {
    if (this.boundaries.length > 0 && end - start > 2 && bytes[start] === DASH && bytes[start + 1] === DASH) {
      const d = this.delimiter(bytes, start, end);
      if (d) {
        if (d.last) {
          d.boundary.node.finalize();
          this.current = d.boundary.node.parentNode ?? this.root;
        } else {
          d.boundary.node.finalizeChildNodes();
          this.current = new Part(this, d.boundary.node);
        }
        if (isFinal) this.root.finalize();
        return;
      }
    }
    this.current.feed(bytes, start, end);
    if (isFinal) this.root.finalize();
  }

  /** postal-mime's readLine: lines end at LF; trailing CRs (and LFs) are not part of them. */
  parse(bytes: Buffer): void {
    const n = bytes.length;
    let pos = 0;
    while (pos < n) {
      // A loop beats a native indexOf call on lines of tens of bytes.
      let lf = pos;
      while (lf < n && bytes[lf] !== LF) lf++;
      const next = lf < n ? lf + 1 : n;
      let end = lf;
      while (end > pos && bytes[end - 1] === CR) end--;
      this.line(bytes, pos, end, next >= n);
      pos = next;
    }
  }
}

/**
 * The part tree and top-level headers of a raw message, or undefined when the message uses
 * something this module leaves to postal-mime (see the module comment).
 */
export function parseMime(raw: Uint8Array): MimeMessage | undefined {
  const parser = new Parser();
  try {
    parser.parse(Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
  } catch (e) {
    if (e instanceof Declined) return undefined;
    throw e;
  }
  return { headers: parser.root.headers, root: parser.root };
}
