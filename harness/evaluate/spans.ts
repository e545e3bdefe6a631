/**
 * Span-level evaluation of a partial-duplicate detector against an oracle of planted spans
 * (`bench synth partial`), in the unit PDC-MR works in: sentence pairs.
 *
 * - An oracle span of documents (a, b) names the sentences of a inside its a-range and those of
 *   b inside its b-range; the k-th of one is paired with the k-th of the other.
 * - A detected span with sentence units pairs sentence aStart + k with bStart + k; one without
 *   units is read like an oracle span, from its character ranges.
 * - A detected sentence pair is correct when both positions match an oracle pair (same two
 *   documents, same two sentences). Precision = correct / detected, recall = correct / oracle.
 * - The paper's document-level view beside it: the document pairs with at least one detected
 *   span against those with at least one oracle span.
 * Sentences are those of `algorithms/text/sentences.ts`, the splitter the synthesizer cut with.
 */
import type { DocumentTexts, Span } from '../../contract/index.ts';
import type { SentenceSpan } from '../../algorithms/text/sentences.ts';

/** An oracle span by document index. */
export interface IndexedOracleSpan {
  readonly a: number;
  readonly aStart: number;
  readonly aEnd: number;
  readonly b: number;
  readonly bStart: number;
  readonly bEnd: number;
}

export interface SpanScores {
  readonly detected_sentence_pairs: number;
  readonly oracle_sentence_pairs: number;
  readonly correct_sentence_pairs: number;
  readonly span_precision: number | null;
  readonly span_recall: number | null;
  readonly span_f1: number | null;
  readonly detected_document_pairs: number;
  readonly oracle_document_pairs: number;
  readonly doc_precision: number | null;
  readonly doc_recall: number | null;
  readonly doc_f1: number | null;
}

/** The sentences of document `doc` (index) lying inside [start, end). */
function inside(sentences: readonly SentenceSpan[], start: number, end: number): number[] {
  const out: number[] = [];
  sentences.forEach((s, i) => {
    if (s.start >= start && s.end <= end) out.push(i);
  });
  return out;
}

function pairKeys(a: number, b: number, as: readonly number[], bs: readonly number[], into: Set<string>): void {
  const n = Math.min(as.length, bs.length);
  for (let k = 0; k < n; k++) {
    const i = as[k] as number;
    const j = bs[k] as number;
    into.add(a < b ? `${a}:${i}:${b}:${j}` : `${b}:${j}:${a}:${i}`);
  }
}

function ratio(n: number, d: number): number | null {
  return d === 0 ? null : n / d;
}

function f1(p: number | null, r: number | null): number | null {
  return p === null || r === null ? null : p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

export function evaluateSpans(
  detected: readonly Span[],
  oracle: readonly IndexedOracleSpan[],
  sentencesOf: (doc: number) => readonly SentenceSpan[],
): SpanScores {
  const found = new Set<string>();
  const foundDocs = new Set<string>();
  for (const s of detected) {
    foundDocs.add(`${s.a}:${s.b}`);
    if (s.units) {
      for (let k = 0; k < s.units.length; k++) found.add(`${s.a}:${s.units.aStart + k}:${s.b}:${s.units.bStart + k}`);
    } else {
      pairKeys(s.a, s.b, inside(sentencesOf(s.a), s.aStart, s.aEnd), inside(sentencesOf(s.b), s.bStart, s.bEnd), found);
    }
  }
  const truth = new Set<string>();
  const truthDocs = new Set<string>();
  for (const o of oracle) {
    truthDocs.add(o.a < o.b ? `${o.a}:${o.b}` : `${o.b}:${o.a}`);
    pairKeys(o.a, o.b, inside(sentencesOf(o.a), o.aStart, o.aEnd), inside(sentencesOf(o.b), o.bStart, o.bEnd), truth);
  }
  let correct = 0;
  for (const k of found) if (truth.has(k)) correct++;
  let correctDocs = 0;
  for (const k of foundDocs) if (truthDocs.has(k)) correctDocs++;
  const p = ratio(correct, found.size);
  const r = ratio(correct, truth.size);
  const dp = ratio(correctDocs, foundDocs.size);
  const dr = ratio(correctDocs, truthDocs.size);
  return {
    detected_sentence_pairs: found.size,
    oracle_sentence_pairs: truth.size,
    correct_sentence_pairs: correct,
    span_precision: p,
    span_recall: r,
    span_f1: f1(p, r),
    detected_document_pairs: foundDocs.size,
    oracle_document_pairs: truthDocs.size,
    doc_precision: dp,
    doc_recall: dr,
    doc_f1: f1(dp, dr),
  };
}

/**
 * Checks an oracle against the corpus: every document known, every range inside its text and
 * not empty, and no two spans of one document pair overlapping on either side. Returns the
 * spans by index, or throws a one-line error naming the line (`where(i)`).
 */
export function indexOracle(
  spans: readonly { a: string; aStart: number; aEnd: number; b: string; bStart: number; bEnd: number }[],
  ids: readonly string[],
  texts: DocumentTexts,
  where: (i: number) => string,
): IndexedOracleSpan[] {
  const byId = new Map(ids.map((id, i) => [id, i]));
  const out: IndexedOracleSpan[] = [];
  const seen = new Map<string, { i: number; s: IndexedOracleSpan }[]>();
  spans.forEach((s, i) => {
    const a = byId.get(s.a);
    const b = byId.get(s.b);
    if (a === undefined || b === undefined) throw new Error(`${where(i)}: unknown document ${JSON.stringify(a === undefined ? s.a : s.b)} (not in the corpus)`);
    if (a === b) throw new Error(`${where(i)}: a span of document ${JSON.stringify(s.a)} with itself`);
    for (const [doc, start, end] of [[a, s.aStart, s.aEnd], [b, s.bStart, s.bEnd]] as const) {
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start < end && end <= (texts.at(doc) as string).length)) {
        throw new Error(`${where(i)}: range [${start}, ${end}) is not a non-empty range of document ${JSON.stringify(ids[doc])} (${(texts.at(doc) as string).length} characters)`);
      }
    }
    const span = { a, aStart: s.aStart, aEnd: s.aEnd, b, bStart: s.bStart, bEnd: s.bEnd };
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    const others = seen.get(key) ?? [];
    for (const o of others) {
      const x = o.s.a === a ? o.s : { a: o.s.b, aStart: o.s.bStart, aEnd: o.s.bEnd, b: o.s.a, bStart: o.s.aStart, bEnd: o.s.aEnd };
      if ((x.aStart < s.aEnd && s.aStart < x.aEnd) || (x.bStart < s.bEnd && s.bStart < x.bEnd)) {
        throw new Error(`${where(i)}: span overlaps the span of ${where(o.i)} (documents ${JSON.stringify(s.a)} and ${JSON.stringify(s.b)})`);
      }
    }
    others.push({ i, s: span });
    seen.set(key, others);
    out.push(span);
  });
  return out;
}
