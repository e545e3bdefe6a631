/**
 * PPJoin's evidence about a pair (contract/explain.ts, issue 26): the two token sets in the
 * global order (ascending document frequency, ties by fingerprint: the rarest tokens first),
 * the prefixes the larger set probes with and the smaller is indexed by, the prefix tokens
 * they share, and each filter in the order the join applies them, with the one that rejected
 * the pair or the exact Jaccard that admitted it. The decisions are the jobs' own (jobs.ts:
 * prefix pairs, position filter, verify), replayed for one pair.
 */
import type { AdapterExplain, Evidence, ExplainContext, JsonValue } from '../../contract/index.ts';
import { fit, quoted, ratio } from '../text/explain-lines.ts';
import { documentCounts } from '../text/feature-counts.ts';
import { shingleOccurrences } from '../text/offsets.ts';
import { jaccard, minOverlap, minPartnerSize, positionBound } from './bounds.ts';
import { localRanks, tokenText } from './jobs.ts';
import { BELOW_THRESHOLD, decideCandidate, PRUNED_BY_SIGNATURE, PRUNED_BY_SUFFIX } from './pair.ts';
import type { PPJoinParams } from './params.ts';
import { firstCommon } from './sets.ts';
import { indexLength, joinSettings, probeLength } from './settings.ts';
import { addToSignature, signatureDistance } from './signature.ts';

/** Prefix tokens shown per document. */
const PREFIX_SHOWN = 4;

interface Side {
  readonly doc: number;
  /** tokens as the jobs write them (df in 8 hex digits, then the fingerprint), ascending */
  readonly tokens: readonly string[];
  /** each fingerprint's first shingle in the text */
  readonly text: ReadonlyMap<string, string>;
}

interface Step {
  readonly filter: string;
  readonly passed: boolean;
  readonly why: string;
}

function side(doc: number, ctx: ExplainContext, params: PPJoinParams): { doc: number; keys: string[]; text: Map<string, string> } {
  const t = ctx.docs.texts.at(doc) as string;
  const occ = shingleOccurrences(t, params.shingle, params.fingerprint);
  const text = new Map<string, string>();
  occ.keys.forEach((k, i) => {
    if (!text.has(k)) text.set(k, t.slice(occ.starts[i], occ.ends[i]));
  });
  return { doc, keys: [...text.keys()], text };
}

async function evidence(params: PPJoinParams, ctx: ExplainContext): Promise<Evidence> {
  const s = joinSettings(params, Number.MIN_VALUE);
  const rawA = side(ctx.a, ctx, params);
  const rawB = side(ctx.b, ctx, params);
  const df = await documentCounts(ctx, params.shingle, params.fingerprint, [...new Set([...rawA.keys, ...rawB.keys])]);
  const ordered = (r: typeof rawA): Side => ({ doc: r.doc, tokens: r.keys.map((k) => tokenText(df.get(k) as number, k)).sort(), text: r.text });
  const A = ordered(rawA);
  const B = ordered(rawB);
  // Processing order (size, document): the larger set x probes, the smaller y is indexed (jobs.ts).
  const [x, y] = B.tokens.length > A.tokens.length || (B.tokens.length === A.tokens.length && B.doc > A.doc) ? [B, A] : [A, B];
  const nx = x.tokens.length;
  const ny = y.tokens.length;
  const xName = x === A ? 'A' : 'B';
  const yName = x === A ? 'B' : 'A';
  const setY = new Set(y.tokens);
  const common = x.tokens.filter((t) => setY.has(t)).length;
  const exact = nx + ny - common === 0 ? null : jaccard(common, nx, ny);
  const alpha = minOverlap(nx, ny, s.t);
  const probe = probeLength(nx, s);
  const index = indexLength(ny, s);
  const yPos = new Map(y.tokens.map((t, j) => [t, j]));
  const prefixShared: { i: number; j: number; token: string }[] = [];
  for (let i = 0; i < probe; i++) {
    const j = yPos.get(x.tokens[i] as string);
    if (j !== undefined && j < index) prefixShared.push({ i, j, token: x.tokens[i] as string });
  }
  const steps: Step[] = [];
  let outcome: string | undefined;
  const step = (filter: string, passed: boolean, why: string): boolean => {
    steps.push({ filter, passed, why });
    if (!passed) outcome = `rejected by the ${filter} filter`;
    return passed;
  };
  const decide = (): void => {
    if (nx === 0 || ny === 0) {
      outcome = 'no pair: a document without tokens';
      return;
    }
    const smallest = s.length ? minPartnerSize(nx, s.t) : 0;
    if (s.length && !step('length', ny >= smallest, `|${yName}| = ${ny} ${ny >= smallest ? '≥' : '<'} ${smallest}, the smallest set that can reach t with |${xName}| = ${nx}`)) return;
    const prefixName = s.prefix ? 'prefix' : 'shared-token';
    const why = s.prefix
      ? `${prefixShared.length} shared among ${xName}'s first ${probe} and ${yName}'s first ${index} tokens (rarest first)`
      : `${prefixShared.length} shared tokens (prefix filter off)`;
    if (!step(prefixName, prefixShared.length > 0, why)) return;
    if (s.position) {
      const last = prefixShared.reduce((p, q) => (q.i > p.i ? q : p));
      const bound = positionBound(prefixShared.length - 1, last.i, nx, last.j, ny);
      if (!step('position', bound >= alpha, `at most ${bound} common tokens from the last shared prefix token; α = ${alpha} needed`)) return;
    }
    const [rx, ry] = localRanks(x.tokens, y.tokens);
    const first = firstCommon(rx, nx, ry, ny) as [number, number];
    const signatureOf = (tokens: readonly string[]): Uint32Array => {
      const sig = new Uint32Array(s.signatureWords);
      for (const t of tokens) addToSignature(sig, 0, parseInt(t.slice(-8), 16), 32 * s.signatureWords);
      return sig;
    };
    const distance = s.signature ? signatureDistance(signatureOf(x.tokens), 0, signatureOf(y.tokens), 0, s.signatureWords) : 0;
    const o = decideCandidate(
      { x: rx, xs: 0, nx, y: ry, ys: 0, ny, alpha, firstI: first[0], firstJ: first[1], resumeI: first[0] + 1, resumeJ: first[1] + 1, common: 1, signatureDistance: distance },
      s,
    );
    const budget = nx + ny - 2 * alpha;
    if (s.suffix && !step('suffix', o !== PRUNED_BY_SUFFIX, `the suffixes' difference bound against the budget |x| + |y| − 2α = ${budget}`)) return;
    if (s.signature && !step('signature', o !== PRUNED_BY_SIGNATURE, `the bitmaps differ in ${distance} bits; budget ${budget}`)) return;
    step('verification', o !== BELOW_THRESHOLD, `${common} common tokens: Jaccard ${ratio(exact)} ${o !== BELOW_THRESHOLD ? '≥' : '<'} t = ${s.t} (α = ${alpha})`);
  };
  decide();
  const reported = outcome === undefined;
  const w = ctx.width;
  const prefixLine = (label: string, d: Side, n: number): string[] => {
    const out = [`${label}'s ${n === probe && d === x ? 'probing' : 'indexed'} prefix: ${n} of ${d.tokens.length} tokens (document frequency, text):`];
    for (const t of d.tokens.slice(0, Math.min(n, PREFIX_SHOWN))) {
      const head = `  df ${parseInt(t.slice(0, 8), 16)}${setY.has(t) && x.tokens.includes(t) ? ' shared' : ''} `;
      out.push(head + quoted(d.text.get(t.slice(8)) ?? '', w - head.length));
    }
    if (n > PREFIX_SHOWN) out.push(`  … ${n - PREFIX_SHOWN} more`);
    return out;
  };
  const lines = [
    `t = ${s.t}: |A| = ${A.tokens.length}, |B| = ${B.tokens.length} tokens, ${common} common: Jaccard ${ratio(exact)}; needs α = ${alpha} common`,
    ...prefixLine(xName, x, probe),
    ...prefixLine(yName, y, index),
    ...steps.map((st) => `${st.passed ? 'passed' : 'REJECTED'} ${st.filter}: ${st.why}`),
    reported ? `reported with its exact Jaccard ${ratio(exact)}` : (outcome as string),
  ];
  const stepsJson: JsonValue[] = steps.map((st) => ({ filter: st.filter, passed: st.passed, why: st.why }));
  return {
    summary: reported ? `admitted by every filter, verified: Jaccard ${ratio(exact)} ≥ ${s.t}` : `${outcome}${steps.length > 0 ? ` (${steps[steps.length - 1]?.why})` : ''}`,
    data: {
      threshold: s.t,
      tokens_a: A.tokens.length,
      tokens_b: B.tokens.length,
      common,
      jaccard: exact,
      alpha,
      probing: xName,
      probe_prefix: probe,
      index_prefix: index,
      prefix_shared: prefixShared.map((p) => ({ [`position_${xName.toLowerCase()}`]: p.i, [`position_${yName.toLowerCase()}`]: p.j, df: parseInt(p.token.slice(0, 8), 16) })),
      filters: stepsJson,
      outcome: reported ? 'reported' : (outcome as string),
      reported,
      score: reported ? exact : null,
    },
    lines: lines.map((l) => fit(l, w)),
  };
}

export const ppjoinExplain: AdapterExplain<PPJoinParams> = { features: (params, text) => shingleOccurrences(text, params.shingle, params.fingerprint), evidence };
