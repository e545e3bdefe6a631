/**
 * SpotSigs' evidence about a pair (contract/explain.ts, issue 26): the antecedents (the
 * collection's most frequent words), each document's spot signatures as the chains they are
 * (`antecedent:word:word`), those the two share, the length filter and the Jaccard of the two
 * signature sets against τ. A chain is located in each text where it first occurs, from its
 * antecedent to its last word.
 */
import type { AdapterExplain, Evidence, ExplainContext } from '../../contract/index.ts';
import { fit, once, quoted, ratio, wordFrequencies } from '../text/explain-lines.ts';
import { fingerprintHex, fingerprintOf } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import { normalizeWithOffsets, originalRange } from '../text/offsets.ts';
import { corpusTables, makeSigner } from '../text/sentence-signatures.ts';
import { jaccard, lengthCompatible } from '../text/set-similarity.ts';
import { wordStarts } from '../text/tokens.ts';
import { signatureSpec } from './jobs.ts';
import type { SpotSigsParams } from './params.ts';

/** Shared chains shown. */
const SHOWN = 6;

interface Chain {
  readonly text: string;
  /** [start, end) of the original text, from the antecedent to the chain's last word */
  readonly at: readonly [number, number];
}

/** A document's spot chains (as `spotChains` forms them, first occurrence each), keyed by the signature the detector hashes them to. */
export function chainsOf(text: string, antecedents: ReadonlySet<string>, distance: number, chain: number): Map<string, Chain> {
  const n = normalizeWithOffsets(text);
  const starts = wordStarts(n.normalized);
  const words = Array.from(starts, (s, k) => n.normalized.slice(s, k + 1 < starts.length ? (starts[k + 1] as number) - 1 : n.normalized.length));
  const out = new Map<string, Chain>();
  for (let i = 0; i < words.length; i++) {
    const a = words[i] as string;
    if (!antecedents.has(a)) continue;
    const links: string[] = [];
    let content = 0;
    let last = i;
    for (let j = i + 1; j < words.length && links.length < chain; j++) {
      const w = words[j] as string;
      if (antecedents.has(w)) continue;
      content++;
      if (content % distance === 0) {
        links.push(w);
        last = j;
      }
    }
    if (links.length < chain) continue;
    const s = `${a}:${links.join(':')}`;
    const key = fingerprintHex(fingerprintOf(s, 'rabin64'), 0, 2);
    const end = (starts[last] as number) + (words[last] as string).length;
    if (!out.has(key)) out.set(key, { text: s, at: originalRange(n, starts[i] as number, end) });
  }
  return out;
}

function evidence(params: SpotSigsParams, ctx: ExplainContext): Evidence {
  const spec = signatureSpec(params);
  const tables = once(ctx, `spotsigs-tables:${spec.method === 'spotsigs' ? spec.antecedents : ''}`, () => corpusTables(spec, wordFrequencies(ctx)));
  const antecedents = new Set(tables.antecedents);
  const ta = ctx.docs.texts.at(ctx.a) as string;
  const tb = ctx.docs.texts.at(ctx.b) as string;
  const A = chainsOf(ta, antecedents, params.distance, params.chain);
  const B = chainsOf(tb, antecedents, params.distance, params.chain);
  // the detector's own signer gives the sets it joins; the chains name them
  const signer = makeSigner(spec, tables);
  const sigA = signer(normalize(ta));
  const sigB = new Set(signer(normalize(tb)));
  const shared = sigA.filter((s) => sigB.has(s));
  const lengthOk = sigA.length > 0 && sigB.size > 0 && lengthCompatible(sigA.length, sigB.size, params.tau);
  const j = sigA.length + sigB.size - shared.length === 0 ? null : jaccard(shared.length, sigA.length, sigB.size);
  const reported = lengthOk && shared.length > 0 && j !== null && j >= params.tau;
  const w = ctx.width;
  const lines = [
    `antecedents (the ${antecedents.size} most frequent words): ${[...(tables.antecedents ?? [])].slice(0, 10).join(', ')}${antecedents.size > 10 ? ', …' : ''}`,
    `spot signatures: A ${sigA.length}, B ${sigB.size}, shared ${shared.length}: Jaccard ${ratio(j)}; τ = ${params.tau}`,
    `length filter: ${lengthOk ? 'passed' : `REJECTED (${Math.min(sigA.length, sigB.size)} / ${Math.max(sigA.length, sigB.size)} < τ)`}; ${reported ? 'reported' : 'not reported'}`,
  ];
  for (const key of shared.slice(0, SHOWN)) {
    const c = A.get(key);
    if (!c) continue;
    const head = `  ${c.text}: `;
    lines.push(head + quoted(ta.slice(c.at[0], c.at[1]), w - head.length));
  }
  return {
    summary: `${shared.length} of ${sigA.length} and ${sigB.size} spot signatures shared: Jaccard ${ratio(j)} ${j !== null && j >= params.tau ? '≥' : '<'} τ = ${params.tau}${lengthOk ? '' : ' (length filter)'}`,
    data: {
      tau: params.tau,
      antecedents: [...(tables.antecedents ?? [])],
      signatures_a: sigA.length,
      signatures_b: sigB.size,
      shared: shared.map((k) => ({ chain: A.get(k)?.text ?? k, a: A.get(k)?.at ?? null, b: B.get(k)?.at ?? null })),
      length_filter: lengthOk,
      jaccard: j,
      score: reported ? j : null,
      reported,
    },
    lines: lines.map((l) => fit(l, w)),
  };
}

export const spotSigsExplain: AdapterExplain<SpotSigsParams> = { evidence };
