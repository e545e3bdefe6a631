/**
 * Broder's evidence about a pair (contract/explain.ts, issue 26): the fingerprints the two
 * documents share, and which of them the sampling kept and dropped, with the arithmetic of
 * the score (sampling.ts is the definition this follows):
 *
 * - none: every shared fingerprint counts; the score is the full-shingle RR.
 * - mod: a fingerprint is kept when fp mod m = residue; the score is the Jaccard of the two
 *   sampled sets. Adaptive: the same at the coarser modulus of the two documents' levels.
 * - sct: a shared fingerprint is dropped when more than `threshold` documents of the
 *   collection hold it; the score is kept / (|A| + |B| − kept).
 *
 * Computed again from the texts; the SCT counts scan the collection once.
 */
import type { AdapterExplain, Evidence, ExplainContext, FeatureOccurrences, JsonValue } from '../../contract/index.ts';
import { documentCounts } from '../text/feature-counts.ts';
import { normalizedWordCount } from '../text/normalize.ts';
import { shingleOccurrences } from '../text/offsets.ts';
import { fit, once, quoted, ratio } from '../text/explain-lines.ts';
import type { BroderParams } from './params.ts';
import { commonalityLimit, documentLevel, resemblance, samplingLevels } from './sampling.ts';

/** How many kept and dropped fingerprints the evidence shows, each with its shingle's text. */
const SHOWN = 5;

interface SharedFingerprint {
  readonly key: string;
  /** the first occurrence in document a: where its shingle lies */
  readonly start: number;
  readonly end: number;
  kept: boolean;
  /** fp mod m (mod and adaptive), or the documents that hold it (sct) */
  value: number;
}

function features(params: BroderParams, text: string): FeatureOccurrences {
  return shingleOccurrences(text, params.shingle, params.fingerprint);
}

const TWO_POW_32 = 2 ** 32;

/**
 * A document's distinct fingerprints: where each first lies and its place among them, and each
 * as numbers (32-bit words, most significant first, at `place · width`) for `fp mod m`.
 */
interface Distinct {
  readonly first: Map<string, { readonly start: number; readonly end: number; readonly place: number }>;
  readonly words: Float64Array;
  readonly width: number;
}

function distinct(occ: FeatureOccurrences): Distinct {
  const first = new Map<string, { start: number; end: number; place: number }>();
  const { keys, starts, ends } = occ;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (!first.has(k)) first.set(k, { start: starts[i] as number, end: ends[i] as number, place: first.size });
  }
  const width = first.size === 0 ? 0 : (first.keys().next().value as string).length / 8;
  const words = new Float64Array(first.size * width);
  let at = 0;
  for (const key of first.keys()) for (let k = 0; k < key.length; k += 8) words[at++] = parseInt(key.slice(k, k + 8), 16);
  return { first, words, width };
}

/** The fingerprint at `place` of `d` modulo m, exactly for m <= 2^21: Horner's rule over its words, below 2^53. */
function wordsMod(d: Distinct, place: number, m: number): number {
  let acc = 0;
  const at = place * d.width;
  for (let k = 0; k < d.width; k++) acc = (acc * TWO_POW_32 + (d.words[at + k] as number)) % m;
  return acc;
}

/** How many of a document's distinct fingerprints are `residue` mod m. */
function keptByMod(d: Distinct, m: number, residue: number): number {
  let kept = 0;
  const n = d.width === 0 ? 0 : d.words.length / d.width;
  for (let place = 0; place < n; place++) if (wordsMod(d, place, m) === residue) kept++;
  return kept;
}

/** The fingerprints both documents hold, in A's order: the same for every variant of a shingling, so computed once a pair. */
interface SharedOf {
  readonly keys: readonly string[];
  /** where each first lies in A, and its place among A's distinct fingerprints */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  readonly places: readonly number[];
}

function sharedOf(A: Distinct, B: Distinct): SharedOf {
  const keys: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const places: number[] = [];
  for (const [key, at] of A.first) {
    if (!B.first.has(key)) continue;
    keys.push(key);
    starts.push(at.start);
    ends.push(at.end);
    places.push(at.place);
  }
  return { keys, starts, ends, places };
}

interface Rule {
  readonly text: string;
  readonly data: Record<string, JsonValue>;
  /** what the score is computed from: sizes, and whether sampling shrinks them */
  readonly sampled: boolean;
  readonly m?: number;
  readonly residue?: number;
}

function rule(params: BroderParams, ctx: ExplainContext, sizes: { a: number; b: number }): Rule {
  const s = params.sampling;
  const words = (i: number): number => normalizedWordCount(ctx.docs.texts[i] as string);
  switch (s.method) {
    case 'none':
      return { text: 'no sampling: every fingerprint counts', data: { method: 'none' }, sampled: false };
    case 'sct':
      return { text: `SCT ${s.threshold}: a fingerprint held by more than ${s.threshold} documents is dropped`, data: { method: 'sct', threshold: s.threshold }, sampled: false };
    case 'mod': {
      const all = s.residues === 'all' ? ` (residue ${s.residue} of the ${s.m} trials)` : '';
      return { text: `mod sampling: a fingerprint is kept when fp mod ${s.m} = ${s.residue}${all}`, data: { method: 'mod', m: s.m, residue: s.residue }, sampled: true, m: s.m, residue: s.residue };
    }
    case 'adaptive': {
      const levels = samplingLevels(s);
      const la = documentLevel(s, levels, sizes.a, words(ctx.a));
      const lb = documentLevel(s, levels, sizes.b, words(ctx.b));
      const m = levels.moduli[Math.max(la, lb)] as number;
      return {
        text: `adaptive sampling: moduli ${levels.moduli[la]} and ${levels.moduli[lb]} by size; compared at the coarser, fp mod ${m} = 0`,
        data: { method: 'adaptive', m_a: levels.moduli[la] as number, m_b: levels.moduli[lb] as number, m },
        sampled: true,
        m,
        residue: 0,
      };
    }
    case 'adaptive-target':
      throw new Error('broder: an adaptive-target variant is explained through the adaptive run it chose');
  }
}

async function evidence(params: BroderParams, ctx: ExplainContext): Promise<Evidence> {
  // The same document is explained by many variants of a run: its shingles are cut once.
  const key = `broder-distinct:${JSON.stringify([params.shingle, params.fingerprint])}`;
  const of = (i: number) => once(ctx, `${key}:${i}`, () => distinct(features(params, ctx.docs.texts[i] as string)));
  const dA = of(ctx.a);
  const dB = of(ctx.b);
  const A = dA.first;
  const B = dB.first;
  const r = rule(params, ctx, { a: A.size, b: B.size });
  const both = once(ctx, `${key}:shared:${ctx.a}:${ctx.b}`, () => sharedOf(dA, dB));
  const shared: SharedFingerprint[] = both.keys.map((k, i) => ({ key: k, start: both.starts[i] as number, end: both.ends[i] as number, kept: true, value: 0 }));
  let sizeA = A.size;
  let sizeB = B.size;
  if (r.m !== undefined) {
    const m = r.m;
    const residue = r.residue ?? 0;
    // A document is in the errors of many variants of one modulus, and of several moduli.
    const keptIn = (i: number, d: Distinct): number => once(ctx, `${key}:mod ${m} = ${residue}:${i}`, () => keptByMod(d, m, residue));
    sizeA = keptIn(ctx.a, dA);
    sizeB = keptIn(ctx.b, dB);
    shared.forEach((f, i) => {
      f.value = wordsMod(dA, both.places[i] as number, m);
      f.kept = f.value === r.residue;
    });
  }
  const limit = commonalityLimit(params.sampling);
  if (Number.isFinite(limit)) {
    // The same pair is an error of many SCT thresholds: its counts are looked up once.
    const counts = await once(ctx, `${key}:shared-counts:${ctx.a}:${ctx.b}`, () => documentCounts(ctx, params.shingle, params.fingerprint, both.keys));
    for (const f of shared) {
      f.value = counts.get(f.key) as number;
      f.kept = f.value <= limit;
    }
  }
  const kept = shared.filter((f) => f.kept).length;
  const denominator = sizeA + sizeB - kept;
  const score = denominator === 0 ? null : resemblance(kept, sizeA, sizeB);
  const text = ctx.docs.texts[ctx.a] as string;
  const sct = Number.isFinite(limit);
  const show = (fs: readonly SharedFingerprint[]): SharedFingerprint[] =>
    // SCT: the most common first (why they were dropped); otherwise in text order
    [...fs].sort((x, y) => (sct ? y.value - x.value : 0) || x.start - y.start).slice(0, SHOWN);
  const keptShown = show(shared.filter((f) => f.kept));
  const droppedShown = show(shared.filter((f) => !f.kept));
  const valueName = sct ? 'documents' : r.m !== undefined ? `fp mod ${r.m}` : null;
  const fpJson = (f: SharedFingerprint): JsonValue => ({ fingerprint: f.key, start_a: f.start, end_a: f.end, ...(valueName ? { [sct ? 'documents' : 'residue']: f.value } : {}) });
  const sizeNote = r.sampled ? 'sampled sizes' : 'sizes';
  const lines = [
    r.text,
    `shared fingerprints ${shared.length}: ${kept} kept, ${shared.length - kept} dropped`,
    `${sizeNote}: A ${sizeA} of ${A.size}, B ${sizeB} of ${B.size}` + (r.sampled ? '' : ' distinct fingerprints'),
    `score = kept / (|A| + |B| − kept) = ${kept} / (${sizeA} + ${sizeB} − ${kept}) = ${ratio(score)}`,
  ];
  const listed = (title: string, fs: readonly SharedFingerprint[]): void => {
    if (fs.length === 0) return;
    lines.push(title);
    for (const f of fs) {
      const head = `  ${f.key}${valueName ? ` ${valueName} ${f.value}` : ''} `;
      lines.push(fit(head + quoted(text.slice(f.start, f.end), ctx.width - head.length), ctx.width));
    }
  };
  listed(`kept (${kept}), the first ${keptShown.length}${sct ? ' by documents' : ''}:`, keptShown);
  listed(`dropped (${shared.length - kept}), the first ${droppedShown.length}${sct ? ' by documents' : ''}:`, droppedShown);
  return {
    summary: `${kept} of ${shared.length} shared fingerprints kept (${r.text.split(':')[0]}): score ${ratio(score)}`,
    data: {
      sampling: r.data,
      shared: shared.length,
      kept,
      dropped: shared.length - kept,
      size_a: sizeA,
      size_b: sizeB,
      distinct_a: A.size,
      distinct_b: B.size,
      score,
      kept_examples: keptShown.map(fpJson),
      dropped_examples: droppedShown.map(fpJson),
    },
    lines: lines.map((l) => fit(l, ctx.width)),
  };
}

export const broderExplain: AdapterExplain<BroderParams> = { features, evidence };
