/**
 * `span-examples/<variant>.json`: a few matched document pairs of a detector that writes spans,
 * with excerpts of both texts and the spans' offsets, so that the run report can show the shared
 * text side by side without the corpus (the report opens offline, anywhere).
 *
 * The pairs: with a reply oracle (`evaluate.replies`), the two reply-parent pairs with the most
 * matched text that a span which is not boilerplate joins, then the boilerplate-only pair with
 * the most; then (or without the oracle) the pairs with the most matched text. Matched text is
 * counted in sentences where the spans have units, else in characters; ties go to the lower
 * document indexes. Deterministic for the same spans in any order.
 */
import type { DocumentSet, Span } from '../../contract/index.ts';
import { isBoilerplate, kindName, type SpanKind } from '../evaluate/span-kinds.ts';

/** Characters of context around the spans in an excerpt, and the most an excerpt holds. */
const CONTEXT = 300;
const MAX_EXCERPT = 6000;

export interface ExcerptSide {
  readonly id: string;
  /** offset of `text` in the document */
  readonly offset: number;
  readonly text: string;
  /** the whole document's length */
  readonly length: number;
}

export interface ExampleSpan {
  /** character ranges [start, end) in each document (not in the excerpt) */
  readonly a: readonly [number, number];
  readonly b: readonly [number, number];
  readonly sentences: number | null;
  /** footer, signature, repeated or other, with a reply oracle; null without */
  readonly kind: string | null;
}

export interface SpanExample {
  readonly note: string;
  readonly a: ExcerptSide;
  readonly b: ExcerptSide;
  readonly spans: readonly ExampleSpan[];
}

export interface SpanExamplesFile {
  readonly variant: string;
  readonly spans: number;
  readonly examples: readonly SpanExample[];
}

export interface ExampleOptions {
  readonly kinds?: readonly SpanKind[];
  readonly replyPairs?: ReadonlySet<string>;
  readonly count?: number;
}

interface Group {
  readonly a: number;
  readonly b: number;
  readonly spans: number[];
  weight: number;
}

function excerpt(id: string, text: string, ranges: readonly (readonly [number, number])[]): ExcerptSide {
  const lo = Math.min(...ranges.map((r) => r[0]));
  const hi = Math.max(...ranges.map((r) => r[1]));
  const from = Math.max(0, lo - CONTEXT);
  const to = Math.min(text.length, hi + CONTEXT, from + MAX_EXCERPT);
  return { id, offset: from, text: text.slice(from, to), length: text.length };
}

export function spanExamples(variant: string, spans: readonly Span[], docs: DocumentSet, opts: ExampleOptions = {}): SpanExamplesFile {
  const count = opts.count ?? 3;
  const groups = new Map<number, Group>();
  const n = docs.ids.length;
  spans.forEach((s, i) => {
    const key = s.a * n + s.b;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { a: s.a, b: s.b, spans: [], weight: 0 }));
    g.spans.push(i);
    g.weight += s.units ? s.units.length : s.aEnd - s.aStart;
  });
  const ranked = [...groups.values()].sort((x, y) => y.weight - x.weight || x.a - y.a || x.b - y.b);
  const chosen: { g: Group; note: string }[] = [];
  const take = (g: Group | undefined, note: string): void => {
    if (g && chosen.length < count && !chosen.some((c) => c.g === g)) chosen.push({ g, note });
  };
  const { kinds, replyPairs } = opts;
  if (kinds && replyPairs) {
    const quoted = ranked.filter((g) => replyPairs.has(`${g.a}:${g.b}`) && g.spans.some((i) => !isBoilerplate(kinds[i] as SpanKind)));
    for (const g of quoted.slice(0, Math.max(1, count - 1))) take(g, 'a reply and its parent (In-Reply-To): the quoted text');
    const boiler = ranked.find((g) => g.spans.every((i) => isBoilerplate(kinds[i] as SpanKind)));
    if (boiler) take(boiler, `boilerplate shared by two mails (${[...new Set(boiler.spans.map((i) => kindName(kinds[i] as SpanKind)))].join(', ')})`);
  }
  for (const g of ranked) take(g, 'among the pairs with the most matched text');
  const examples = chosen.map(({ g, note }) => {
    const order = g.spans.slice().sort((i, j) => (spans[i] as Span).aStart - (spans[j] as Span).aStart || (spans[i] as Span).bStart - (spans[j] as Span).bStart);
    const its = order.map((i) => spans[i] as Span);
    return {
      note,
      a: excerpt(docs.ids[g.a] as string, docs.texts.at(g.a) as string, its.map((s) => [s.aStart, s.aEnd] as const)),
      b: excerpt(docs.ids[g.b] as string, docs.texts.at(g.b) as string, its.map((s) => [s.bStart, s.bEnd] as const)),
      spans: order.map((i, k) => {
        const s = its[k] as Span;
        return { a: [s.aStart, s.aEnd] as const, b: [s.bStart, s.bEnd] as const, sentences: s.units?.length ?? null, kind: kinds ? kindName(kinds[i] as SpanKind) : null };
      }),
    };
  });
  return { variant, spans: spans.length, examples };
}
