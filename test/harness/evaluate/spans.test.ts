import { describe, expect, it } from 'vitest';
import type { SentenceSpan } from '../../../algorithms/text/sentences.ts';
import { evaluateSpans, indexOracle } from '../../../harness/evaluate/spans.ts';

/** Three documents of sentences 10 characters apart: sentence i is [10i, 10i + 8). */
const sentences = (n: number): SentenceSpan[] => Array.from({ length: n }, (_, i) => ({ start: 10 * i, end: 10 * i + 8 }));
const docs: SentenceSpan[][] = [sentences(10), sentences(10), sentences(6)];
const of = (d: number): SentenceSpan[] => docs[d] as SentenceSpan[];

describe('span-level evaluation', () => {
  it('counts sentence pairs that match the oracle in both positions, by hand', () => {
    // oracle: doc 0 sentences 2-4 = doc 1 sentences 5-7; doc 2 sentences 0-1 = doc 0 sentences 7-8 (given b < a)
    const oracle = [
      { a: 0, aStart: 20, aEnd: 48, b: 1, bStart: 50, bEnd: 78 },
      { a: 2, aStart: 0, aEnd: 18, b: 0, bStart: 70, bEnd: 88 },
    ];
    const detected = [
      // 0:2-5 vs 1:5-8: three correct, one extra (0:5, 1:8)
      { a: 0, b: 1, aStart: 20, aEnd: 58, bStart: 50, bEnd: 88, units: { aStart: 2, bStart: 5, length: 4 } },
      // by characters, shifted by one in doc 2: (0:7, 2:1) is not an oracle pair
      { a: 0, b: 2, aStart: 70, aEnd: 78, bStart: 10, bEnd: 18 },
      // a pair of documents the oracle does not have
      { a: 1, b: 2, aStart: 0, aEnd: 8, bStart: 0, bEnd: 8, units: { aStart: 0, bStart: 0, length: 1 } },
    ];
    const r = evaluateSpans(detected, oracle, of);
    // detected pairs 4 + 1 + 1 = 6, oracle pairs 3 + 2 = 5, correct 3
    expect(r).toMatchObject({ detected_sentence_pairs: 6, oracle_sentence_pairs: 5, correct_sentence_pairs: 3 });
    expect(r.span_precision).toBe(3 / 6);
    expect(r.span_recall).toBe(3 / 5);
    expect(r.span_f1).toBeCloseTo((2 * 0.5 * 0.6) / 1.1, 15);
    // document pairs: found {0:1, 0:2, 1:2}, oracle {0:1, 0:2}
    expect(r).toMatchObject({ detected_document_pairs: 3, oracle_document_pairs: 2, doc_precision: 2 / 3, doc_recall: 1 });
  });

  it('gives empty cells, not NaN, when nothing is detected', () => {
    const r = evaluateSpans([], [{ a: 0, aStart: 0, aEnd: 8, b: 1, bStart: 0, bEnd: 8 }], of);
    expect(r.span_precision).toBeNull();
    expect(r.span_recall).toBe(0);
    expect(r.span_f1).toBeNull();
  });
});

describe('oracle checks', () => {
  const ids = ['x', 'y', 'z'];
  const texts = ['0123456789', '0123456789', '01234'];
  const where = (i: number) => `oracle.csv:${i + 2}`;
  const span = (a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number) => ({ a, aStart, aEnd, b, bStart, bEnd });

  it('indexes a good oracle', () => {
    expect(indexOracle([span('x', 0, 4, 'y', 2, 6), span('y', 7, 9, 'x', 5, 7)], ids, texts, where)).toEqual([
      { a: 0, aStart: 0, aEnd: 4, b: 1, bStart: 2, bEnd: 6 },
      { a: 1, aStart: 7, aEnd: 9, b: 0, bStart: 5, bEnd: 7 },
    ]);
  });

  it('names the line of an unknown document, a bad range, or overlapping spans', () => {
    expect(() => indexOracle([span('x', 0, 4, 'w', 0, 1)], ids, texts, where)).toThrow('oracle.csv:2: unknown document "w" (not in the corpus)');
    expect(() => indexOracle([span('x', 0, 4, 'z', 3, 9)], ids, texts, where)).toThrow('oracle.csv:2: range [3, 9) is not a non-empty range of document "z" (5 characters)');
    expect(() => indexOracle([span('x', 0, 4, 'y', 0, 2), span('y', 1, 3, 'x', 8, 9)], ids, texts, where)).toThrow(
      'oracle.csv:3: span overlaps the span of oracle.csv:2 (documents "y" and "x")',
    );
  });
});
