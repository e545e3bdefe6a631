import { Parser } from 'htmlparser2';

/** Elements whose content is never text: dropped with everything inside them. */
const DROPPED = new Set(['script', 'style']);

/**
 * Elements that may appear inside `<head>`. Any other opening tag ends the head, as in the
 * HTML5 parsing algorithm, so an unclosed `<head>` (common in spam) does not swallow the body.
 */
const HEAD_CONTENT = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'basefont', 'bgsound']);

/**
 * The visible text of an HTML page: the head, scripts, styles, comments and the doctype are
 * dropped, every tag boundary becomes one space (`a<br>b` → `a b`) and entities are decoded.
 * Source white space is kept as it is: the normalization of Nikkhoo 3.1.1 collapses it later.
 * A streaming tokenizer, not a DOM: no tree is built, so the cost is one pass over the input.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  // True when the last thing written is a boundary space: consecutive tags give one space.
  let atBoundary = true;
  let inHead = false;
  // Depth of open dropped elements (script/style cannot nest, but a stray second open can).
  let dropped = 0;

  const boundary = (): void => {
    if (!atBoundary) {
      out.push(' ');
      atBoundary = true;
    }
  };

  const parser = new Parser(
    {
      onopentagname(name) {
        if (name === 'head') inHead = true;
        else if (inHead && !HEAD_CONTENT.has(name)) inHead = false;
        if (DROPPED.has(name)) dropped++;
        boundary();
      },
      onclosetag(name) {
        if (name === 'head') inHead = false;
        else if (DROPPED.has(name) && dropped > 0) dropped--;
        boundary();
      },
      ontext(text) {
        if (dropped > 0 || inHead || text.length === 0) return;
        out.push(text);
        atBoundary = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return out.join('').trim();
}
