/**
 * HTML to text for every reader (trecweb, trec, warc, mail): the visible text of a page, in
 * one pass over the string, without building a tree or calling back per token.
 *
 * The tokenization follows htmlparser2's Tokenizer (and so HTML5's) on what decides where
 * text is: which `<` opens a tag, how quoted attribute values hide a `>`, where comments,
 * CDATA, doctypes and bogus comments end, and which elements hold raw text. It is written
 * out by hand because it sits on the hot path of reading a collection: with htmlparser2's
 * Parser it took three quarters of the reading time and held readers under 50 MB/s. Where
 * this scanner parts from htmlparser2 it does so on purpose (found by running both on the
 * HTML of the bundled corpus and on random tag soup):
 * - every tag is a boundary, also an end tag that closes nothing (`a</span>b` → `a b`);
 *   htmlparser2 reports only end tags that match an open element;
 * - `<iframe>`, `<noembed>` and `<noframes>` are read as ordinary elements: their content is
 *   the fallback page (the whole text of a GOV2-era frameset), and as raw text its markup
 *   leaks into the text (it did in 50 of the 1,209 HTML mails of the bundled corpus);
 * - the head ends as in HTML5 (see HEAD_CONTENT, HEAD_ENDERS), not when an element that
 *   encloses it is closed; `<script>` and `<style>` are raw text inside `<svg>` too;
 * - a tag cut off by the end of the input is dropped (htmlparser2 keeps some such names as
 *   text), and entities in `<title>`/`<textarea>` are decoded also right after a `<`.
 */
import { createRequire } from 'node:module';

type Entities = typeof import('entities');
let entities: Entities | undefined;
/** entities' decoder, loaded at its first use (as charset.ts loads iconv-lite: start-up). */
const decodeHTML = (s: string): string => (entities ??= createRequire(import.meta.url)('entities') as Entities).decodeHTML(s);

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;
const DASH = 0x2d;

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
const isAlpha = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const endsTagName = (c: number): boolean => c === SLASH || c === GT || isWhitespace(c);

/**
 * Elements whose content is text up to their end tag, tags inside included: `raw` is taken as
 * it is, `rcdata` has its entities decoded. `drop` content is never text (scripts, styles).
 */
type TextMode = 'drop' | 'raw' | 'rcdata';
const TEXT_ELEMENTS: ReadonlyMap<string, TextMode> = new Map([
  ['script', 'drop'],
  ['style', 'drop'],
  ['title', 'rcdata'],
  ['textarea', 'rcdata'],
  ['xmp', 'raw'],
]);
/** Everything after `<plaintext>` is raw text: there is no end tag. */
const PLAINTEXT = 'plaintext';
/** Longest name worth reading: anything longer is in none of the sets here. */
const LONGEST_SPECIAL_NAME = PLAINTEXT.length;

/**
 * Elements that may appear inside `<head>`. Any other opening tag ends the head, as in the
 * HTML5 parsing algorithm, so an unclosed `<head>` (common in spam) does not swallow the body.
 */
const HEAD_CONTENT = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'basefont', 'bgsound']);
/** End tags that end the head (HTML5 "in head" insertion mode); other end tags there are ignored. */
const HEAD_ENDERS = new Set(['head', 'body', 'html', 'br']);

/** The index after the `>` that ends an open tag whose name ends at `i`, or -1 at the end of input. */
function openTagEnd(s: string, i: number): number {
  const n = s.length;
  for (;;) {
    // Between attributes: white space and stray `/` (a `/>` ends no element in HTML).
    let c = 0;
    while (i < n) {
      c = s.charCodeAt(i);
      if (c === GT) return i + 1;
      if (c !== SLASH && !isWhitespace(c)) break;
      i++;
    }
    if (i >= n) return -1;
    // An attribute name: its first character may be anything, even `=` or a quote.
    i++;
    while (i < n && (c = s.charCodeAt(i)) !== EQ && !endsTagName(c)) i++;
    while (i < n && isWhitespace((c = s.charCodeAt(i)))) i++;
    if (i >= n) return -1;
    if (c !== EQ) continue;
    i++;
    while (i < n && isWhitespace((c = s.charCodeAt(i)))) i++;
    if (i >= n) return -1;
    if (c === DQ || c === SQ) {
      // A quoted value may hold `>`; one never closed runs to the end of the input.
      const close = s.indexOf(c === DQ ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else {
      while (i < n && (c = s.charCodeAt(i)) !== GT && !isWhitespace(c)) i++;
    }
  }
}

/**
 * The index after a `<!…` construct starting at `lt` (comment, CDATA, doctype or bogus
 * comment), or -1 when it runs to the end of the input.
 */
function markupDeclarationEnd(s: string, lt: number): number {
  const at = lt + 2;
  if (s.charCodeAt(at) === DASH && s.charCodeAt(at + 1) === DASH) {
    const body = at + 2;
    // `<!-->` and `<!--->` are empty comments.
    if (s.charCodeAt(body) === GT) return body + 1;
    if (s.charCodeAt(body) === DASH && s.charCodeAt(body + 1) === GT) return body + 2;
    // The first `--` (any run of dashes) followed by `>` or `!>` ends it.
    for (let d = s.indexOf('--', body); d >= 0; d = s.indexOf('--', d)) {
      d += 2;
      while (s.charCodeAt(d) === DASH) d++;
      if (s.charCodeAt(d) === GT) return d + 1;
      if (s.charCodeAt(d) === BANG && s.charCodeAt(d + 1) === GT) return d + 2;
    }
    return -1;
  }
  if (s.startsWith('[CDATA[', at)) {
    const close = s.indexOf(']]>', at + 7);
    return close < 0 ? -1 : close + 3;
  }
  const gt = s.indexOf('>', at);
  return gt < 0 ? -1 : gt + 1;
}

/** Where the end tag `</name` (any case, then white space, `/` or `>`) starts at or after `from`, or -1. */
function findEndTag(s: string, name: string, from: number): number {
  for (let i = s.indexOf('</', from); i >= 0; i = s.indexOf('</', i + 2)) {
    let k = 0;
    while (k < name.length && (s.charCodeAt(i + 2 + k) | 0x20) === name.charCodeAt(k)) k++;
    if (k === name.length && i + 2 + k < s.length && endsTagName(s.charCodeAt(i + 2 + k))) return i;
  }
  return -1;
}

/**
 * The lower-cased name of the tag in s[start, end) when it can be one of the names looked up
 * here, else ''. Most tags (`p`, `a`, `td`, `div`…) are told apart by their first letter and
 * length alone, which saves a string for each of them.
 */
function specialName(s: string, start: number, end: number, inHead: boolean): string {
  const len = end - start;
  if (len > LONGEST_SPECIAL_NAME) return '';
  if (!inHead) {
    const c = s.charCodeAt(start) | 0x20;
    const maybe =
      (c === 0x73 && (len === 5 || len === 6)) || // style, script
      (c === 0x74 && (len === 5 || len === 8)) || // title, textarea
      (c === 0x68 && len === 4) || // head
      (c === 0x78 && len === 3) || // xmp
      (c === 0x70 && len === 9); // plaintext
    if (!maybe) return '';
  }
  return s.slice(start, end).toLowerCase();
}

/**
 * Emphasis elements whose text simhash's tag boosting weighs up (Seshasai 2009, §5.4): a, b,
 * i and h1 to h3, told by their length and letters without a string: 0 for any other tag,
 * else a bit of its own.
 */
function emphasisBit(s: string, start: number, end: number): number {
  const len = end - start;
  const c = s.charCodeAt(start) | 0x20;
  if (len === 1) return c === 0x61 ? 1 : c === 0x62 ? 2 : c === 0x69 ? 4 : 0; // a b i
  if (len === 2 && c === 0x68) {
    const d = s.charCodeAt(start + 1);
    return d >= 0x31 && d <= 0x33 ? 8 << (d - 0x31) : 0; // h1 h2 h3
  }
  return 0;
}

/**
 * What `htmlToDocument` collects beside the text: the first title, and the text inside
 * emphasis elements, one element per line.
 */
class TagCollector {
  title: string | undefined;
  tagged = '';
  /** open emphasis elements, a count per kind (an unclosed one stays open to the end) */
  private readonly open = new Uint32Array(6);
  private openCount = 0;

  get inside(): boolean {
    return this.openCount > 0;
  }

  start(bit: number): void {
    const k = 31 - Math.clz32(bit);
    this.open[k] = (this.open[k] as number) + 1;
    this.openCount++;
  }

  end(bit: number): void {
    const k = 31 - Math.clz32(bit);
    const count = this.open[k] as number;
    if (count === 0) return;
    this.open[k] = count - 1;
    this.openCount--;
    if (this.openCount > 0) return;
    // one element a line: the boundary space before the end tag gives way to the line break
    if (this.tagged.endsWith(' ')) this.tagged = this.tagged.slice(0, -1);
    if (this.tagged !== '' && !this.tagged.endsWith('\n')) this.tagged += '\n';
  }
}

/**
 * The text being built: pieces of the input, one space for each run of tags. A class, not
 * closures: htmlToText runs once per document and closures would be allocated each time.
 */
class TextWriter {
  out = '';
  /** True when the last thing written is a boundary space (or nothing): tags give one space. */
  atBoundary = true;
  inHead = false;
  /**
   * The first '&' at or after the text being written (-1: none left, -2: not looked for yet).
   * Text is written in order, so every '&' is found once and a page without one costs one scan.
   */
  private amp = -2;

  constructor(
    private readonly s: string,
    readonly tags: TagCollector | undefined,
  ) {}

  text(from: number, to: number, decode: boolean): void {
    if (to <= from || this.inHead) return;
    if (decode && this.amp !== -1 && this.amp < from) this.amp = this.s.indexOf('&', from);
    const piece = decode && this.amp >= 0 && this.amp < to ? decodeHTML(this.s.slice(from, to)) : this.s.slice(from, to);
    if (piece.length === 0) return;
    this.out += piece;
    this.atBoundary = false;
    if (this.tags?.inside) this.tags.tagged += piece;
  }

  boundary(): void {
    if (!this.atBoundary) {
      this.out += ' ';
      this.atBoundary = true;
      if (this.tags?.inside) this.tags.tagged += ' ';
    }
  }
}

/**
 * The visible text of an HTML page: the head, scripts, styles, comments and the doctype are
 * dropped, every tag becomes one space (`a<br>b` → `a b`, consecutive tags give one) and
 * entities are decoded. Source white space is kept as it is: the normalization of Nikkhoo
 * 3.1.1 collapses it later. Broken HTML never throws: an unclosed comment, script or tag
 * drops the rest of the input, a `<` that opens no tag is text.
 */
export function htmlToText(html: string): string {
  return scan(html, undefined);
}

/** A page's text with what readers carry beside it in `meta`. */
export interface HtmlDocument {
  readonly text: string;
  /** the first `<title>`'s text, entities decoded, white space collapsed; undefined when none or empty */
  readonly title: string | undefined;
  /**
   * The text inside a, b, i and h1-h3 elements (simhash's tag boosting, Seshasai 2009 §5.4;
   * the title is in `title`), one outermost element a line, each as it appears in `text`.
   */
  readonly tagged: string;
}

/** `htmlToText`, collecting the title and the emphasized text as it goes (the same text). */
export function htmlToDocument(html: string): HtmlDocument {
  const tags = new TagCollector();
  const text = scan(html, tags);
  const title = tags.title?.replace(/\s+/g, ' ').trim();
  return { text, title: title === '' ? undefined : title, tagged: tags.tagged.trim() };
}

/** The meta fields readers carry from an HTML page: `title` and `tagged`, when not empty. */
export function htmlMeta(h: HtmlDocument): Record<string, string> {
  const meta: Record<string, string> = {};
  if (h.title !== undefined) meta['title'] = h.title;
  if (h.tagged !== '') meta['tagged'] = h.tagged;
  return meta;
}

function scan(html: string, tags: TagCollector | undefined): string {
  const s = html;
  const n = s.length;
  const w = new TextWriter(s, tags);
  let pos = 0;
  while (pos < n) {
    const lt = s.indexOf('<', pos);
    if (lt < 0 || lt + 1 >= n) {
      w.text(pos, n, true);
      break;
    }
    const c = s.charCodeAt(lt + 1);
    if (isAlpha(c)) {
      w.text(pos, lt, true);
      let nameEnd = lt + 2;
      while (nameEnd < n && !endsTagName(s.charCodeAt(nameEnd))) nameEnd++;
      if (nameEnd >= n) break; // a tag cut off inside its name: not a tag, nothing more to read
      const name = specialName(s, lt + 1, nameEnd, w.inHead);
      if (name === 'head') w.inHead = true;
      else if (w.inHead && !HEAD_CONTENT.has(name)) w.inHead = false;
      w.boundary();
      const end = openTagEnd(s, nameEnd);
      if (end < 0) break;
      pos = end;
      if (tags && !w.inHead) {
        const bit = emphasisBit(s, lt + 1, nameEnd);
        if (bit !== 0) tags.start(bit);
      }
      if (name === '') continue;
      if (name === PLAINTEXT) {
        w.text(pos, n, false);
        break;
      }
      const mode = TEXT_ELEMENTS.get(name);
      if (mode === undefined) continue;
      const close = findEndTag(s, name, pos);
      if (tags && name === 'title' && tags.title === undefined) tags.title = decodeHTML(s.slice(pos, close < 0 ? n : close));
      if (mode !== 'drop') w.text(pos, close < 0 ? n : close, mode === 'rcdata');
      if (close < 0) break;
      pos = close; // the end tag itself is read as one
    } else if (c === SLASH) {
      w.text(pos, lt, true);
      const c2 = s.charCodeAt(lt + 2);
      if (isAlpha(c2)) {
        let nameEnd = lt + 3;
        while (nameEnd < n && !endsTagName(s.charCodeAt(nameEnd))) nameEnd++;
        if (nameEnd >= n) break;
        if (w.inHead && HEAD_ENDERS.has(specialName(s, lt + 2, nameEnd, true))) w.inHead = false;
        w.boundary();
        if (tags) {
          const bit = emphasisBit(s, lt + 2, nameEnd);
          if (bit !== 0) tags.end(bit);
        }
      } else if (lt + 2 >= n) {
        // `</` at the very end is text, as htmlparser2 reads it.
        w.text(lt, n, false);
        break;
      }
      // `</>` is nothing; `</` before anything else is a bogus comment; all end at the next `>`.
      const gt = s.indexOf('>', lt + 2);
      if (gt < 0) break;
      pos = gt + 1;
    } else if (c === BANG || c === QUESTION) {
      w.text(pos, lt, true);
      const end = c === BANG ? markupDeclarationEnd(s, lt) : s.indexOf('>', lt + 2) + 1;
      if (end <= 0) break;
      pos = end;
    } else {
      // A `<` that opens nothing is text: keep it with what follows.
      w.text(pos, lt + 1, true);
      pos = lt + 1;
    }
  }
  return w.out.trim();
}
