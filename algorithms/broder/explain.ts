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
 * Computed again from the texts; the SCT counts come from the fingerprints the run computed
 * (feature-counts.ts), else from one scan of the collection for a whole error sample.
 */
import type { AdapterExplain, Evidence, ExplainContext, JsonValue } from '../../contract/index.ts';
import { documentCountsById } from '../text/feature-counts.ts';
import { normalizedWordCount } from '../text/normalize.ts';
import { distinctOccurrences, sharedFeatures, type DistinctOccurrences } from '../text/occurrence-sets.ts';
import { shingleOccurrences, type ShingleOccurrences } from '../text/offsets.ts';
import { fit, once, quoted, ratio } from '../text/explain-lines.ts';
import type { BroderParams } from './params.ts';
import { commonalityLimit, documentLevel, resemblance, samplingLevels } from './sampling.ts';

/** How many kept and dropped fingerprints the evidence shows, each with its shingle's text. */
const SHOWN = 5;

interface SharedFingerprint {
  /** in hex, made once: the data and the lines both show it */
  readonly hex: string;
  /** the first occurrence in document a: where its shingle lies */
  readonly start: number;
  readonly end: number;
  readonly kept: boolean;
  /** fp mod m (mod and adaptive), or the documents that hold it (sct) */
  readonly value: number;
}

function features(params: BroderParams, text: string): ShingleOccurrences {
  return shingleOccurrences(text, params.shingle, params.fingerprint);
}

const TWO_POW_32 = 2 ** 32;

/**
 * A document's distinct fingerprints by their numbers (offsets.ts), in order of first
 * occurrence (occurrence-sets.ts: the ground truth's shared text asks for the same set). The
 * numbering holds each fingerprint's 32-bit words, most significant first, for `fp mod m`.
 */
interface Distinct {
  readonly occ: ShingleOccurrences;
  /** `set.distinct`: the distinct fingerprints' numbers */
  readonly set: DistinctOccurrences;
}

function distinct(occ: ShingleOccurrences): Distinct {
  return { occ, set: distinctOccurrences(occ.ids) };
}

/**
 * The fingerprint numbered `id` modulo m, exactly for m <= 2^21: Horner's rule over its words,
 * below 2^53; for a power of two (every modulus of the quickstart), the low bits of its last word.
 */
function idMod(words: Uint32Array, width: number, id: number, m: number): number {
  const at = id * width;
  if ((m & (m - 1)) === 0) return ((words[at + width - 1] as number) & (m - 1)) >>> 0;
  let acc = 0;
  for (let k = 0; k < width; k++) acc = (acc * TWO_POW_32 + (words[at + k] as number)) % m;
  return acc;
}

/** How many of a document's distinct fingerprints are `residue` mod m. */
function keptByMod(d: Distinct, m: number, residue: number): number {
  const words = d.occ.numbering.keys();
  const width = d.occ.numbering.width;
  let kept = 0;
  for (let p = 0; p < d.set.distinct.length; p++) if (idMod(words, width, d.set.distinct[p] as number, m) === residue) kept++;
  return kept;
}

/** The fingerprints both documents hold, in A's order: the same for every variant of a shingling, so computed once a pair. */
interface SharedOf {
  /** their numbers (hex only for those shown) */
  readonly ids: readonly number[];
  /** where each first lies in A */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

function sharedOf(A: Distinct, B: Distinct): SharedOf {
  return sharedInA(A, sharedFeatures(A.set, B.set).x);
}

/** The distinct fingerprints of A flagged in `inA`, in A's order. A loop alone (occurrence-sets.ts says why). */
function sharedInA(A: Distinct, inA: Uint8Array): SharedOf {
  const { distinct, first } = A.set;
  const ids: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (let p = 0; p < distinct.length; p++) {
    if (inA[p] !== 1) continue;
    const k = first[p] as number;
    ids.push(distinct[p] as number);
    starts.push(A.occ.starts[k] as number);
    ends.push(A.occ.ends[k] as number);
  }
  return { ids, starts, ends };
}

/** The run's cache key of what explanations of one shingling know, made once a variant's parameters (a variant explains tens of pairs). */
const knownKeys = new WeakMap<BroderParams, string>();
function knownKey(params: BroderParams): string {
  let key = knownKeys.get(params);
  if (key === undefined) knownKeys.set(params, (key = `broder-known:${JSON.stringify([params.shingle, params.fingerprint])}`));
  return key;
}

/** A variant's rule when it does not depend on the pair (every sampling but adaptive), made once its parameters. */
const rules = new WeakMap<BroderParams, Rule>();
function ruleOf(params: BroderParams, ctx: ExplainContext): Rule {
  let r = rules.get(params);
  if (r === undefined) rules.set(params, (r = rule(params, ctx, { a: 0, b: 0 })));
  return r;
}

interface Rule {
  readonly text: string;
  /** what the summary calls it: the text before its colon */
  readonly name: string;
  readonly data: Record<string, JsonValue>;
  /** what the score is computed from: sizes, and whether sampling shrinks them */
  readonly sampled: boolean;
  readonly m?: number;
  readonly residue?: number;
}

function rule(params: BroderParams, ctx: ExplainContext, sizes: { a: number; b: number }): Rule {
  const r = ruleOfSampling(params, ctx, sizes);
  return { ...r, name: r.text.split(':')[0] as string };
}

function ruleOfSampling(params: BroderParams, ctx: ExplainContext, sizes: { a: number; b: number }): Omit<Rule, 'name'> {
  const s = params.sampling;
  const words = (i: number): number => normalizedWordCount(ctx.docs.texts.at(i) as string);
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
  // The same document is explained by many variants of a run: its shingles are cut once; what
  // is known of documents and pairs is kept by number, one look-up of the run's cache a pair.
  const known = once(ctx, knownKey(params), () => new Known());
  const of = (i: number): Distinct => {
    let d = known.distinct.get(i);
    if (!d) known.distinct.set(i, (d = distinct(features(params, ctx.docs.texts.at(i) as string))));
    return d;
  };
  const dA = of(ctx.a);
  const dB = of(ctx.b);
  const r = params.sampling.method === 'adaptive' ? rule(params, ctx, { a: dA.set.distinct.length, b: dB.set.distinct.length }) : ruleOf(params, ctx);
  const pairKey = ctx.a * ctx.docs.ids.length + ctx.b;
  let both = known.shared.get(pairKey);
  if (!both) known.shared.set(pairKey, (both = sharedOf(dA, dB)));
  const limit = commonalityLimit(params.sampling);
  const sct = Number.isFinite(limit);
  // The only wait comes first (the SCT counts): what follows runs to its end without one, so
  // that the scratch arrays below serve every explanation in turn.
  let counts: Uint32Array | undefined;
  if (sct) {
    // The same pair is an error of many SCT thresholds: its counts are looked up once.
    let asked = known.sharedCounts.get(pairKey);
    if (!asked) known.sharedCounts.set(pairKey, (asked = sharedCounts(ctx, params, dA, both.ids)));
    counts = await asked;
  }
  // One value and flag a shared fingerprint, in typed arrays: a near-duplicate pair shares
  // thousands, and only the few shown become objects.
  const n = both.ids.length;
  const { value, keptFlag } = scratchFor(n);
  let sizeA = dA.set.distinct.length;
  let sizeB = dB.set.distinct.length;
  if (r.m !== undefined) {
    const m = r.m;
    const residue = r.residue ?? 0;
    // A document is in the errors of many variants of one modulus, and of several moduli.
    const modRule = `${m}:${residue}`;
    let keptOf = known.keptByMod.get(modRule);
    if (!keptOf) known.keptByMod.set(modRule, (keptOf = new Map()));
    const kept = keptOf;
    const keptIn = (i: number, d: Distinct): number => {
      let k = kept.get(i);
      if (k === undefined) kept.set(i, (k = keptByMod(d, m, residue)));
      return k;
    };
    sizeA = keptIn(ctx.a, dA);
    sizeB = keptIn(ctx.b, dB);
    modValues(dA.occ, both.ids, { m, residue, value, keptFlag });
  }
  if (counts) countValues(counts, { limit, value, keptFlag });
  const kept = flagsSet(keptFlag);
  const denominator = sizeA + sizeB - kept;
  const score = denominator === 0 ? null : resemblance(kept, sizeA, sizeB);
  const scoreText = ratio(score);
  const text = ctx.docs.texts.at(ctx.a) as string;
  const show = (flag: number): SharedFingerprint[] =>
    shownOf({ keptFlag, value, starts: both.starts, flag, byValue: sct }).map((i) => ({ hex: dA.occ.hexOf(both.ids[i] as number), start: both.starts[i] as number, end: both.ends[i] as number, kept: flag === 1, value: value[i] as number }));
  const keptShown = show(1);
  const droppedShown = show(0);
  const valueName = sct ? 'documents' : r.m !== undefined ? `fp mod ${r.m}` : null;
  // One object literal a kind of sampling: objects of one shape, which V8 makes and stringifies fastest.
  const fpJson = sct
    ? (f: SharedFingerprint): JsonValue => ({ fingerprint: f.hex, start_a: f.start, end_a: f.end, documents: f.value })
    : valueName
      ? (f: SharedFingerprint): JsonValue => ({ fingerprint: f.hex, start_a: f.start, end_a: f.end, residue: f.value })
      : (f: SharedFingerprint): JsonValue => ({ fingerprint: f.hex, start_a: f.start, end_a: f.end });
  const sizeNote = r.sampled ? 'sampled sizes' : 'sizes';
  const lines = [
    r.text,
    `shared fingerprints ${n}: ${kept} kept, ${n - kept} dropped`,
    `${sizeNote}: A ${sizeA} of ${dA.set.distinct.length}, B ${sizeB} of ${dB.set.distinct.length}` + (r.sampled ? '' : ' distinct fingerprints'),
    `score = kept / (|A| + |B| − kept) = ${kept} / (${sizeA} + ${sizeB} − ${kept}) = ${scoreText}`,
  ];
  const listed = (title: string, fs: readonly SharedFingerprint[]): void => {
    if (fs.length === 0) return;
    lines.push(title);
    for (const f of fs) {
      const head = `  ${f.hex}${valueName ? ` ${valueName} ${f.value}` : ''} `;
      lines.push(fit(head + quoted(text.slice(f.start, f.end), ctx.width - head.length), ctx.width));
    }
  };
  listed(`kept (${kept}), the first ${keptShown.length}${sct ? ' by documents' : ''}:`, keptShown);
  listed(`dropped (${n - kept}), the first ${droppedShown.length}${sct ? ' by documents' : ''}:`, droppedShown);
  return {
    summary: `${kept} of ${n} shared fingerprints kept (${r.name}): score ${scoreText}`,
    data: {
      sampling: r.data,
      shared: n,
      kept,
      dropped: n - kept,
      size_a: sizeA,
      size_b: sizeB,
      distinct_a: dA.set.distinct.length,
      distinct_b: dB.set.distinct.length,
      score,
      kept_examples: keptShown.map(fpJson),
      dropped_examples: droppedShown.map(fpJson),
    },
    lines: lines.map((l) => fit(l, ctx.width)),
  };
}

/**
 * Each shared fingerprint's value (0) and flag (1: kept) for one evidence, in arrays reused from
 * one to the next: an error sample's evidences are hundreds, and a typed array made is a buffer
 * allocated and zeroed (docs/performance.md). Views of the first n, valid until the next call.
 */
let scratchValues = new Float64Array(1024);
let scratchFlags = new Uint8Array(1024);
function scratchFor(n: number): { readonly value: Float64Array; readonly keptFlag: Uint8Array } {
  if (n > scratchValues.length) {
    const size = Math.max(n, 2 * scratchValues.length);
    scratchValues = new Float64Array(size);
    scratchFlags = new Uint8Array(size);
  }
  return { value: scratchValues.subarray(0, n).fill(0), keptFlag: scratchFlags.subarray(0, n).fill(1) };
}

/*
 * The loops over a pair's shared fingerprints (thousands for a near-duplicate pair) are small
 * functions of their own: V8 optimizes a function with a hot loop whole, and `evidence`, with
 * its closures inlined, took 60-110 ms to compile each time, several times a run
 * (docs/performance.md, the error step's compilation).
 */

/** What a run's explanations of one shingling know of its documents and pairs (pairs by a · documents + b). */
class Known {
  readonly distinct = new Map<number, Distinct>();
  readonly shared = new Map<number, SharedOf>();
  /** by `m:residue`, then document */
  readonly keptByMod = new Map<string, Map<number, number>>();
  readonly sharedCounts = new Map<number, Promise<Uint32Array>>();
}

/** The document counts of a pair's shared fingerprints, in their order. */
function sharedCounts(ctx: ExplainContext, params: BroderParams, dA: Distinct, ids: readonly number[]): Promise<Uint32Array> {
  return documentCountsById(ctx, params.shingle, params.fingerprint, dA.occ, ids);
}

/** Each shared fingerprint's fp mod m into `value`, and whether it is the residue into `keptFlag`. */
function modValues(occ: ShingleOccurrences, ids: readonly number[], o: { readonly m: number; readonly residue: number; readonly value: Float64Array; readonly keptFlag: Uint8Array }): void {
  const words = occ.numbering.keys();
  const width = occ.numbering.width;
  const { m, residue, value, keptFlag } = o;
  for (let i = 0; i < ids.length; i++) {
    value[i] = idMod(words, width, ids[i] as number, m);
    keptFlag[i] = value[i] === residue ? 1 : 0;
  }
}

/** Each shared fingerprint's document count into `value`, and whether it is within the SCT limit into `keptFlag`. */
function countValues(counts: Uint32Array, o: { readonly limit: number; readonly value: Float64Array; readonly keptFlag: Uint8Array }): void {
  const { limit, value, keptFlag } = o;
  for (let i = 0; i < counts.length; i++) {
    value[i] = counts[i] as number;
    keptFlag[i] = (value[i] as number) <= limit ? 1 : 0;
  }
}

/** Whether shared fingerprint i is shown before j (mostByValue): by `value` descending, then in A's order. */
function shownBefore(o: { readonly value: Float64Array; readonly starts: readonly number[] }, i: number, j: number): boolean {
  const d = (o.value[j] as number) - (o.value[i] as number) || (o.starts[i] as number) - (o.starts[j] as number);
  return d < 0 || (d === 0 && i < j);
}

/** How many flags are 1: the shared fingerprints kept. */
function flagsSet(flags: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < flags.length; i++) n += flags[i] as number;
  return n;
}

/**
 * The first SHOWN shared fingerprints whose flag is `flag`, as indexes: by `value` descending
 * when `byValue` (SCT: the most common first, why they were dropped), else in text order; ties
 * in A's order. The shared fingerprints are in A's order of first occurrence, which is text
 * order, so without values the first SHOWN flagged are shown. Two functions rather than one for
 * both orders: a run's first variants (mod) had V8 compile it without ever taking the paths that
 * order by value, and the first SCT variant threw that code away (docs/performance.md).
 */
function shownOf(o: { readonly keptFlag: Uint8Array; readonly value: Float64Array; readonly starts: readonly number[]; readonly flag: number; readonly byValue: boolean }): number[] {
  return o.byValue ? mostByValue(o) : firstFlagged(o.keptFlag, o.flag);
}

function firstFlagged(flags: Uint8Array, flag: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < flags.length && top.length < SHOWN; i++) if (flags[i] === flag) top.push(i);
  return top;
}

/** The SHOWN flagged `flag` that come first by shownBefore. */
function mostByValue(o: { readonly keptFlag: Uint8Array; readonly value: Float64Array; readonly starts: readonly number[]; readonly flag: number }): number[] {
  const { keptFlag, flag } = o;
  const top: number[] = [];
  for (let i = 0; i < keptFlag.length; i++) {
    if (keptFlag[i] !== flag) continue;
    if (top.length === SHOWN && !shownBefore(o, i, top[SHOWN - 1] as number)) continue;
    let at = top.length;
    while (at > 0 && shownBefore(o, i, top[at - 1] as number)) at--;
    top.splice(at, 0, i);
    if (top.length > SHOWN) top.pop();
  }
  return top;
}

export const broderExplain: AdapterExplain<BroderParams> = { features, evidence };
