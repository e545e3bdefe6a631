/**
 * Small helpers the detectors' evidence (contract/explain.ts) is written with: one quoted
 * excerpt of a text that fits a line, and numbers as people read them.
 */

import type { ExplainContext } from '../../contract/index.ts';
import { documentFrequencies, type DocumentFrequencies } from './document-frequencies.ts';
import { normalize } from './normalize.ts';
import { words } from './tokens.ts';

/** `compute()` through the explanations' shared cache when there is one (contract/explain.ts). */
export function once<T>(ctx: Pick<ExplainContext, 'cached'>, key: string, compute: () => T): T {
  return ctx.cached ? ctx.cached(key, compute) : compute();
}

/** `text` with white space collapsed, quoted, cut with … to at most `max` columns. */
export function quoted(text: string, max: number): string {
  // Most excerpts hold single spaces only: the test is cheaper than a replace that changes nothing.
  const flat = (NOT_FLAT.test(text) ? text.replace(SPACES, ' ') : text).trim();
  const room = Math.max(3, max - 2);
  return `"${flat.length <= room ? flat : `${flat.slice(0, room - 1)}…`}"`;
}

/** White space that `quoted` collapses: a run of two, or one that is not a plain space. */
const NOT_FLAT = /\s\s|[^\S ]/;
/** A run of white space (one object: a literal in the function is a new one each call; `replace` starts a global one at 0) */
const SPACES = /\s+/g;

/** A ratio with at most 4 significant digits, "–" for an undefined one. */
export function ratio(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '–' : String(Number(x.toPrecision(4)));
}

/** A line cut to `width` columns. */
export function fit(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

/** The collection's document frequencies of the words of the normalized texts (I-Match, PDC-MR, SpotSigs), once per cache. */
export function wordFrequencies(ctx: Pick<ExplainContext, 'cached' | 'docs'>): DocumentFrequencies {
  return once(ctx, 'document-frequencies:words', () => documentFrequencies(Array.from(ctx.docs.texts, (t) => words(normalize(t)))));
}
