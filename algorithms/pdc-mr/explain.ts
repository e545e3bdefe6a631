/**
 * PDC-MR's evidence about a pair (contract/explain.ts, issue 26): both documents' sentences and
 * their signatures, the near-duplicate sentence pairs (Jaccard of their signature sets ≥ τ,
 * Algorithm 1), the runs of at least γ consecutive pairs (Algorithm 2) with the characters each
 * covers, and the covered share of the shorter document that is the score. The sentence pairs
 * on no run (a lone shared line, a signature) are shown too: they are what γ filtered out.
 */
import type { AdapterExplain, Evidence, ExplainContext, JsonValue } from '../../contract/index.ts';
import { fit, once, quoted, ratio, wordFrequencies } from '../text/explain-lines.ts';
import { corpusTables, makeSigner, needsDocumentFrequencies, signDocument, type SignedSentence } from '../text/sentence-signatures.ts';
import { jaccard, lengthCompatible, nearDuplicate } from '../text/set-similarity.ts';
import { coverageScore, diagonalRuns, type SentencePair } from './matching.ts';
import type { PdcMrParams } from './params.ts';

/** Runs and lone sentence pairs shown. */
const SHOWN = 5;

/** The near-duplicate sentence pairs of two signed documents, as MR#2 finds them. */
export function sentencePairs(a: readonly SignedSentence[], b: readonly SignedSentence[], tau: number): (SentencePair & { jaccard: number })[] {
  const out: (SentencePair & { jaccard: number })[] = [];
  for (const x of a) {
    if (x.signatures.length === 0) continue;
    const xs = new Set(x.signatures);
    for (const y of b) {
      if (y.signatures.length === 0 || !lengthCompatible(x.signatures.length, y.signatures.length, tau)) continue;
      const common = y.signatures.filter((s) => xs.has(s)).length;
      if (common > 0 && nearDuplicate(common, x.signatures.length, y.signatures.length, tau)) out.push({ a: x.id, b: y.id, jaccard: jaccard(common, x.signatures.length, y.signatures.length) });
    }
  }
  return out;
}

function evidence(params: PdcMrParams, ctx: ExplainContext): Evidence {
  const spec = params.signature;
  const tables = once(ctx, `pdc-mr-tables:${JSON.stringify(spec)}`, () => corpusTables(spec, needsDocumentFrequencies(spec) ? wordFrequencies(ctx) : null));
  const signer = makeSigner(spec, tables);
  const ta = ctx.docs.texts.at(ctx.a) as string;
  const tb = ctx.docs.texts.at(ctx.b) as string;
  const A = signDocument(ta, signer).sentences;
  const B = signDocument(tb, signer).sentences;
  const pairs = sentencePairs(A, B, params.tau);
  const runs = diagonalRuns(pairs, params.gamma);
  const score = runs.length === 0 || A.length === 0 || B.length === 0 ? null : coverageScore(runs, A.length, B.length);
  const onRun = (p: SentencePair): boolean => runs.some((r) => p.a >= r.aStart && p.a < r.aStart + r.length && p.b - p.a === r.bStart - r.aStart);
  const lone = pairs.filter((p) => !onRun(p));
  const runsJson: JsonValue[] = runs.map((r) => {
    const first = [A[r.aStart] as SignedSentence, B[r.bStart] as SignedSentence];
    const last = [A[r.aStart + r.length - 1] as SignedSentence, B[r.bStart + r.length - 1] as SignedSentence];
    return { sentence_a: r.aStart, sentence_b: r.bStart, sentences: r.length, a: [first[0]!.start, last[0]!.end], b: [first[1]!.start, last[1]!.end] };
  });
  const w = ctx.width;
  const lines = [
    `sentences: A ${A.length}, B ${B.length}; near-duplicate sentence pairs (Jaccard ≥ τ = ${params.tau}): ${pairs.length}`,
    `runs of at least γ = ${params.gamma} consecutive pairs: ${runs.length}${score === null ? '' : `; they cover ${ratio(score)} of the shorter document: the score`}`,
  ];
  for (const [k, r] of runs.slice(0, SHOWN).entries()) {
    const j = runsJson[k] as { a: [number, number]; b: [number, number] };
    const head = `  run A ${r.aStart}–${r.aStart + r.length - 1} ↔ B ${r.bStart}–${r.bStart + r.length - 1}, [${j.a[0]}, ${j.a[1]}): `;
    lines.push(head + quoted(ta.slice(j.a[0], j.a[1]), w - head.length));
  }
  if (lone.length > 0) lines.push(`sentence pairs on no run (fewer than γ in a row): ${lone.length}`);
  for (const p of lone.slice(0, SHOWN)) {
    const s = A[p.a] as SignedSentence;
    const head = `  A ${p.a} ↔ B ${p.b} (Jaccard ${ratio(p.jaccard)}): `;
    lines.push(head + quoted(ta.slice(s.start, s.end), w - head.length));
  }
  const reported = score !== null;
  return {
    summary: reported ? `${runs.length} run${runs.length === 1 ? '' : 's'} of ≥ ${params.gamma} matching sentences cover ${ratio(score)} of the shorter document` : `no run of ${params.gamma} consecutive matching sentences (${pairs.length} matching sentence pairs)`,
    data: {
      tau: params.tau,
      gamma: params.gamma,
      sentences_a: A.length,
      sentences_b: B.length,
      sentence_pairs: pairs.map((p) => ({ a: p.a, b: p.b, jaccard: p.jaccard })),
      runs: runsJson,
      lone_pairs: lone.length,
      score,
      reported,
    },
    lines: lines.map((l) => fit(l, w)),
  };
}

export const pdcMrExplain: AdapterExplain<PdcMrParams> = { evidence };
