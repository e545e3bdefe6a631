import { createRequire } from 'node:module';
import { quote } from '../errors.ts';

type IconvLite = typeof import('iconv-lite');
let iconvLite: IconvLite | undefined;
/**
 * iconv-lite, loaded at the first decode: its tables are a large part of the CLI's start-up, and
 * a run that replays its corpus from the cache decodes nothing.
 */
const iconv = (): IconvLite => (iconvLite ??= createRequire(import.meta.url)('iconv-lite') as IconvLite);

/** Decoded text, or decoded text plus why a fallback had to be used. */
export type Decoded =
  | { readonly kind: 'exact'; readonly text: string }
  | { readonly kind: 'fallback'; readonly text: string; readonly problem: string };

const FALLBACK = 'windows-1252';
const UNSPECIFIED = new Set(['', 'us-ascii', 'ascii', 'us_ascii', 'ansi_x3.4-1968', '7bit']);
const UTF8 = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return false;
  return true;
}

/**
 * windows-1252 leaves five bytes undefined and iconv-lite turns them into U+FFFD; the fallback
 * must never lose a byte, so those become the C1 control of the same value (as WHATWG does).
 */
function decodeFallback(bytes: Uint8Array): string {
  const text = iconv().decode(asBuffer(bytes), FALLBACK);
  if (!text.includes('\uFFFD')) return text;
  let fixed = '';
  for (let i = 0; i < text.length; i++) fixed += text[i] === '\uFFFD' ? String.fromCharCode(bytes[i]!) : text[i];
  return fixed;
}

function fallback(bytes: Uint8Array, problem: string): Decoded {
  return { kind: 'fallback', text: decodeFallback(bytes), problem };
}

/** iconv-lite first (the widest table), then the runtime's WHATWG decoders (ISO-2022-JP). */
function decodeKnown(bytes: Uint8Array, label: string): string | undefined {
  if (iconv().encodingExists(label)) {
    return iconv().decode(asBuffer(bytes), label);
  }
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decodes bytes in a declared charset. Libraries silently substitute U+FFFD or another charset
 * when a label is unknown or the bytes are invalid in it; here that case is detected and
 * reported as a `fallback` (decoded as windows-1252, which maps every byte), so a caller can
 * count it. A missing or US-ASCII label with 8-bit bytes is read as UTF-8 when the bytes are
 * valid UTF-8 (undeclared UTF-8 is common and unambiguous), else falls back.
 */
export function decodeCharset(bytes: Uint8Array, declared: string | undefined): Decoded {
  const label = (declared ?? '').trim().toLowerCase();
  // Pure ASCII reads the same in every ASCII-compatible charset, whatever the label says; the
  // 7-bit ISO-2022, HZ and UTF-7 encodings and the 16/32-bit ones are not ASCII-compatible.
  const asciiCompatible = !/^(utf-?(16|32|7)|ucs|unicode$|iso-?2022|hz)/.test(label);
  if (asciiCompatible && isAscii(bytes)) return { kind: 'exact', text: asBuffer(bytes).toString('latin1') };

  if (UNSPECIFIED.has(label) || UTF8.has(label)) {
    try {
      return { kind: 'exact', text: utf8Strict.decode(bytes) };
    } catch {
      const name = label === '' ? 'no charset' : `charset ${quote(label)}`;
      return fallback(bytes, `${name} but the bytes are not valid ${UTF8.has(label) ? 'UTF-8' : 'ASCII or UTF-8'}`);
    }
  }
  const text = decodeKnown(bytes, label);
  if (text === undefined) return fallback(bytes, `unknown charset ${quote(label)}`);
  if (text.includes('\uFFFD')) return fallback(bytes, `bytes not valid in charset ${quote(label)}`);
  return { kind: 'exact', text };
}
