/**
 * What a span of shared mail text is, by rules (README "Partial duplicates in real mail"): most
 * text that mails share is not a quoted reply but the boilerplate lists and people append.
 *
 *   footer     the first `FOOTER_HEAD` characters of the span, in either document, hold a
 *              list-footer phrase (`LIST_FOOTER`: unsubscribe, mailing list, listinfo,
 *              sponsored by, Yahoo! Groups, …)
 *   signature  the span starts, in either document, inside a signature block: a separator line
 *              "-- " or "--" (quoted or not), with the `SIGN_OFF_LINES` lines before it (the
 *              sign-off, "Chris") and at most `SIGNATURE_LINES` after it, of its quote depth
 *   repeated   the span's text (normalized), on either side, is the text of spans in more than
 *              k documents (a footer or signature no phrase or separator gives away)
 *   boilerplate  any of the three
 * A span's kind is decided by where it starts: a quoted reply that runs on into the quoted
 * footer is a reply, not a footer.
 */
import type { DocumentTexts, Span } from '../../contract/index.ts';
import { normalize } from '../../algorithms/text/normalize.ts';

export const LIST_FOOTER =
  /\bunsubscri|\bmailing[- ]list\b|\blistinfo\b|\blist maintainer\b|\bmailman\b|\bsponsored by\b|\byahoo!? groups\b|\bsubscribed to\b|\bstop receiving\b|\bsubscription information\b|\ball rights reserved\b/i;

/** Characters at the start of a span that the footer rule reads (a footer says what it is at once). */
export const FOOTER_HEAD = 200;
/** Lines of a signature after its separator (the "McQuary limit" is 4; people write more). */
export const SIGNATURE_LINES = 10;
/** Lines before the separator that belong to the signature: a sign-off and a blank line. */
export const SIGN_OFF_LINES = 2;

const SEPARATOR = /^[ \t]*(?:>[ \t]*)*--[ \t]?\r?$/;

export interface SpanKind {
  readonly footer: boolean;
  readonly signature: boolean;
  readonly repeated: boolean;
}

export function isBoilerplate(k: SpanKind): boolean {
  return k.footer || k.signature || k.repeated;
}

/** The kind's name for people: the first rule that holds, else `other`. */
export function kindName(k: SpanKind): 'footer' | 'signature' | 'repeated' | 'other' {
  return k.footer ? 'footer' : k.signature ? 'signature' : k.repeated ? 'repeated' : 'other';
}

function quoteDepth(line: string): number {
  let depth = 0;
  for (const c of line) {
    if (c === '>') depth++;
    else if (c !== ' ' && c !== '\t') break;
  }
  return depth;
}

/** The character ranges [start, end) of a text's signature blocks, in text order. */
export function signatureBlocks(text: string): [number, number][] {
  const lines: { start: number; end: number }[] = [];
  for (let at = 0; at <= text.length; ) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    lines.push({ start: at, end: nl });
    at = nl + 1;
  }
  const blocks: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    const sep = lines[i] as { start: number; end: number };
    if (!SEPARATOR.test(text.slice(sep.start, sep.end))) continue;
    const depth = quoteDepth(text.slice(sep.start, sep.end));
    let first = i;
    while (first > 0 && i - first < SIGN_OFF_LINES) {
      const prev = lines[first - 1] as { start: number; end: number };
      if (quoteDepth(text.slice(prev.start, prev.end)) !== depth) break;
      first--;
    }
    let last = i;
    while (last + 1 < lines.length && last - i < SIGNATURE_LINES) {
      const next = lines[last + 1] as { start: number; end: number };
      if (quoteDepth(text.slice(next.start, next.end)) !== depth) break;
      last++;
    }
    const start = (lines[first] as { start: number }).start;
    const previous = blocks[blocks.length - 1];
    if (previous && previous[1] >= start) previous[1] = (lines[last] as { end: number }).end;
    else blocks.push([start, (lines[last] as { end: number }).end]);
    i = last;
  }
  return blocks;
}


/**
 * The kinds of `spans` over the documents `texts`; `repeatedDocuments` is k. Deterministic
 * whatever the order of the spans. Each distinct side (document, start, end) is looked at once:
 * a footer pairs one range of a mail with hundreds of others.
 */
export function spanKinds(spans: readonly Span[], texts: DocumentTexts, repeatedDocuments: number): SpanKind[] {
  const blocks = new Map<number, [number, number][]>();
  const inSignature = (d: number, at: number): boolean => {
    let b = blocks.get(d);
    if (!b) blocks.set(d, (b = signatureBlocks((texts.at(d) as string))));
    return b.some(([s, e]) => at >= s && at < e);
  };
  interface Side {
    readonly doc: number;
    readonly footer: boolean;
    readonly signature: boolean;
    /** id of its normalized text */
    readonly text: number;
  }
  const sides = new Map<string, Side>();
  const textIds = new Map<string, number>();
  const docsOf: Set<number>[] = [];
  const side = (doc: number, start: number, end: number): Side => {
    const key = `${doc}:${start}:${end}`;
    let s = sides.get(key);
    if (s) return s;
    const t = (texts.at(doc) as string);
    const normalized = normalize(t.slice(start, end));
    let text = textIds.get(normalized);
    if (text === undefined) {
      textIds.set(normalized, (text = docsOf.length));
      docsOf.push(new Set());
    }
    (docsOf[text] as Set<number>).add(doc);
    s = { doc, footer: LIST_FOOTER.test(t.slice(start, Math.min(end, start + FOOTER_HEAD))), signature: inSignature(doc, start), text };
    sides.set(key, s);
    return s;
  };
  const pairs = spans.map((s) => [side(s.a, s.aStart, s.aEnd), side(s.b, s.bStart, s.bEnd)] as const);
  const repeated = (s: Side): boolean => (docsOf[s.text] as Set<number>).size > repeatedDocuments;
  return pairs.map(([a, b]) => ({ footer: a.footer || b.footer, signature: a.signature || b.signature, repeated: repeated(a) || repeated(b) }));
}
