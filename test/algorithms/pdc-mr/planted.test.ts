/**
 * The bar: on a corpus with planted runs of real sentences (built from the bundled mail
 * by `synthPartial`), PDC-MR at the paper's best setting (4-word shingles, τ = 0.9, γ = 3)
 * recovers the planted spans with span F1 >= 0.95.
 */
import { describe, expect, it } from 'vitest';
import { pdcMrParams } from '../../../algorithms/pdc-mr/params.ts';
import { plan } from '../../../algorithms/pdc-mr/plan.ts';
import { splitSentences } from '../../../algorithms/text/sentences.ts';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { evaluateSpans, indexOracle } from '../../../harness/evaluate/spans.ts';
import { synthPartial } from '../../../harness/synth/partial.ts';
import { runKernel } from '../../support/span-plan-runs.ts';

describe('PDC-MR on planted partial duplicates', () => {
  it('recovers the planted spans with span F1 >= 0.95 at 4-shingles, τ = 0.9, γ = 3', async () => {
    const corpus: { id: string; text: string }[] = [];
    for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['easy-ham-2'] } }, newCorpusStats())) corpus.push(d);
    const s = synthPartial(corpus, { plants: 50, documents: 400, minRun: 3, maxRun: 8, editRate: 0, minWords: 3, seed: 7 });
    expect(s.oracle).toHaveLength(50);
    const docs = { ids: s.docs.map((d) => d.id), texts: s.docs.map((d) => d.text) };
    const oracle = indexOracle(s.oracle, docs.ids, docs.texts, (i) => `oracle line ${i + 2}`);
    const p = plan(pdcMrParams.parse({ signature: { method: 'shingles', n: 4 }, tau: 0.9, gamma: 3 }), { minScore: Number.MIN_VALUE, seed: 7 });
    const r = await runKernel(p, docs);
    const spans = r.spans.map((row) => {
      const [a, b, aStart, aEnd, bStart, bEnd, ua, ub, ul] = row.split(' ').map(Number) as number[];
      return { a: a!, b: b!, aStart: aStart!, aEnd: aEnd!, bStart: bStart!, bEnd: bEnd!, units: { aStart: ua!, bStart: ub!, length: ul! } };
    });
    const sentences = docs.texts.map((t) => splitSentences(t));
    const e = evaluateSpans(spans, oracle, (d) => sentences[d]!);
    expect(e.span_f1).toBeGreaterThanOrEqual(0.95);
    expect(e.doc_f1).toBeGreaterThanOrEqual(0.95);
  });
});
