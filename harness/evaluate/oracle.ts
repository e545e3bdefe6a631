/**
 * The span oracle of a run (`evaluate.oracle`): read and checked against the corpus once, then
 * the span measures of every variant whose plan writes spans (`spans.ts`).
 */
import type { DocumentSet, Span } from '../../contract/index.ts';
import { splitSentences, type SentenceSpan } from '../../algorithms/text/sentences.ts';
import { DataError } from '../errors.ts';
import { readOracleFile } from './oracle-file.ts';
import { evaluateSpans, indexOracle } from './spans.ts';

export interface SpanOracle {
  /** span_precision, span_recall, span_f1 and the document-level span_doc_* of a variant's spans */
  measures(spans: readonly Span[]): Record<string, number | null>;
}

export function loadSpanOracle(file: string, docs: DocumentSet): SpanOracle {
  const raw = readOracleFile(file);
  let oracle;
  try {
    oracle = indexOracle(raw, docs.ids, docs.texts, (i) => `${file}:${i + 2}`);
  } catch (e) {
    throw new DataError((e as Error).message);
  }
  const sentences = new Map<number, SentenceSpan[]>();
  const sentencesOf = (d: number): SentenceSpan[] => {
    let s = sentences.get(d);
    if (!s) sentences.set(d, (s = splitSentences(docs.texts.at(d) as string)));
    return s;
  };
  return {
    measures(spans) {
      const e = evaluateSpans(spans, oracle, sentencesOf);
      return {
        span_precision: e.span_precision,
        span_recall: e.span_recall,
        span_f1: e.span_f1,
        span_doc_precision: e.doc_precision,
        span_doc_recall: e.doc_recall,
        span_doc_f1: e.doc_f1,
      };
    },
  };
}
