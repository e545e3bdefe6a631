/**
 * I-Match's evidence about a pair (contract/explain.ts, issue 26): each document's words that
 * the base lexicon holds (normalized idf in [idf_min, idf_max] over the collection), the words
 * that set the two apart, and each of the K+1 signatures (SHA-1 of the sorted unique words a
 * lexicon holds) with whether the two collided in it. Equal signatures are duplicates: one
 * word of the lexicon that only one document holds breaks the base signature, and a
 * randomized lexicon that dropped that word collides anyway.
 */
import type { AdapterExplain, Evidence, ExplainContext, JsonValue } from '../../contract/index.ts';
import { fit, once, wordFrequencies } from '../text/explain-lines.ts';
import { sortedUnique, type Lexicons } from '../text/lexicon.ts';
import { documentTerms, sharedScore, variantLexicons } from './jobs.ts';
import type { ImatchParams } from './params.ts';

/** Words listed per document and per difference. */
const WORDS_SHOWN = 12;

const listed = (words: readonly string[], width: number): string => {
  let out = '';
  for (const [i, w] of words.entries()) {
    const next = (i === 0 ? '' : ', ') + w;
    if (out.length + next.length > width - 12) return `${out}, … (${words.length - i} more)`;
    out += next;
  }
  return out;
};

/** The lexicons of the run, from the collection's document frequencies of words. */
export function lexiconsOf(params: ImatchParams, ctx: Pick<ExplainContext, 'docs' | 'seed' | 'cached'>): Lexicons {
  return once(ctx, `imatch-lexicons:${params.idf_min}:${params.idf_max}:${params.extra_lexicons}:${params.drop}:${ctx.seed}`, () => variantLexicons(params, ctx.seed, wordFrequencies(ctx)));
}

function evidence(params: ImatchParams, ctx: ExplainContext): Evidence {
  const lexicons = lexiconsOf(params, ctx);
  const termsA = sortedUnique(documentTerms(ctx.docs.texts.at(ctx.a) as string));
  const termsB = sortedUnique(documentTerms(ctx.docs.texts.at(ctx.b) as string));
  const sigA = lexicons.signatures(termsA);
  const sigB = lexicons.signatures(termsB);
  const inBase = (ts: readonly string[]): string[] => ts.filter((t) => lexicons.has(0, t));
  const baseA = inBase(termsA);
  const baseB = inBase(termsB);
  const setB = new Set(baseB);
  const setA = new Set(baseA);
  const onlyA = baseA.filter((t) => !setB.has(t));
  const onlyB = baseB.filter((t) => !setA.has(t));
  const collided = sigA.map((s, j) => j).filter((j) => sigA[j] !== null && sigA[j] === sigB[j]);
  const K1 = lexicons.count;
  const score = sharedScore(collided.length, K1);
  const reported = collided.length > 0;
  const lexiconsJson: JsonValue[] = sigA.map((s, j) => {
    const dropped = j === 0 ? [] : [...onlyA, ...onlyB].filter((t) => !lexicons.has(j, t));
    return { lexicon: j, signature_a: s, signature_b: sigB[j] ?? null, collided: collided.includes(j), ...(j === 0 ? {} : { differing_words_dropped: dropped }) };
  });
  const w = ctx.width;
  const lines = [
    `lexicon: words of normalized idf in [${params.idf_min}, ${params.idf_max}] over ${ctx.docs.texts.length} documents: ${lexicons.terms.length} words; ${K1 - 1} randomized`,
    `A holds ${baseA.length} lexicon words of its ${termsA.length}; B ${baseB.length} of ${termsB.length}; in both ${baseA.length - onlyA.length}`,
    `only in A (${onlyA.length}): ${onlyA.length === 0 ? '–' : listed(onlyA.slice(0, WORDS_SHOWN), w - 20)}`,
    `only in B (${onlyB.length}): ${onlyB.length === 0 ? '–' : listed(onlyB.slice(0, WORDS_SHOWN), w - 20)}`,
  ];
  for (const [j, s] of sigA.entries()) {
    const mark = collided.includes(j) ? 'collided' : s === null || sigB[j] === null ? 'no signature' : 'differ';
    lines.push(`lexicon ${j}${j === 0 ? ' (base)' : ''}: A ${(s ?? '–').slice(0, 12)} B ${(sigB[j] ?? '–').slice(0, 12)}: ${mark}`);
  }
  lines.push(`${collided.length} of ${K1} signatures shared: ${reported ? `reported, score ${collided.length}/${K1}` : 'not reported'}`);
  return {
    summary: reported ? `${collided.length} of ${K1} lexicon signatures collided (lexicon ${collided.join(', ')})` : `no signature collided: ${onlyA.length + onlyB.length} lexicon words differ`,
    data: {
      lexicon_words: lexicons.terms.length,
      terms_a: baseA,
      terms_b: baseB,
      only_a: onlyA,
      only_b: onlyB,
      lexicons: lexiconsJson,
      collided,
      score,
      reported,
    },
    lines: lines.map((l) => fit(l, w)),
  };
}

export const imatchExplain: AdapterExplain<ImatchParams> = { evidence };
