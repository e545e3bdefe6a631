/**
 * The text encoding of records: `key<TAB>value`, one record a line, as Hadoop Streaming reads
 * and writes them. Keys and values are escaped so that any string (a document text with tabs
 * and newlines, an id with a backslash) survives the round trip: `\` → `\\`, TAB → `\t`,
 * LF → `\n`, CR → `\r`. A key never contains a raw TAB, so Hadoop's "key is everything up to
 * the first TAB" rule and `sort -t$'\t' -k1,1` both see the whole key.
 */

const ESCAPE_RE = /[\\\t\n\r]/;
const ESCAPE_ALL = /[\\\t\n\r]/g;
const UNESCAPE_ALL = /\\(.)/g;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

export function escapeField(s: string): string {
  return ESCAPE_RE.test(s) ? s.replace(ESCAPE_ALL, (c) => ESCAPES[c] as string) : s;
}

export function unescapeField(s: string): string {
  if (s.indexOf('\\') < 0) return s;
  return s.replace(UNESCAPE_ALL, (whole, c: string) => {
    const u = UNESCAPES[c];
    if (u === undefined) throw new Error(`invalid escape ${JSON.stringify(whole)} in record field`);
    return u;
  });
}

/** One line, without the trailing newline. */
export function encodeRecord(key: string, value: string): string {
  return `${escapeField(key)}\t${escapeField(value)}`;
}

/** Splits a line at its first TAB; a line without one is a key with an empty value (Hadoop's rule). */
export function decodeRecord(line: string): [key: string, value: string] {
  const tab = line.indexOf('\t');
  if (tab < 0) return [unescapeField(line), ''];
  return [unescapeField(line.slice(0, tab)), unescapeField(line.slice(tab + 1))];
}

/**
 * Composite values and keys (`docA:sizeA`, several fields in one value) join their parts with
 * a space after escaping; parts must not contain spaces, which holds for the integers and
 * document indexes the jobs use.
 */
export function joinParts(parts: readonly (string | number)[]): string {
  return parts.join(' ');
}

export function splitParts(s: string): string[] {
  return s.split(' ');
}
