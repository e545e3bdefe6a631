/**
 * simhash's evidence about a pair (contract/explain.ts, issue 26): the two 64-bit fingerprints,
 * their Hamming distance against k, the bits that differ and, for each, the features that
 * pushed each document's sum to its side (Charikar's sum: a feature adds its weight where its
 * hash has a 1 and subtracts it where it has a 0; fingerprint.ts), and the heaviest features
 * of both documents: a few heavy features decide most bits, which is how two documents that
 * share little text can land within k.
 *
 * Computed again from the texts: the document frequencies with the weights' own code (a pass
 * over the collection, or the df file), then each document weighed as the run weighed it.
 */
import type { AdapterExplain, DocumentSet, Evidence, ExplainContext, JsonValue } from '../../contract/index.ts';
import { fit, once, quoted, ratio } from '../text/explain-lines.ts';
import { shingleRanges } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import { readDfFile } from './df-file.ts';
import { hashFeature } from './feature-hash.ts';
import { bitSums, fingerprintToHex, hamming, simhashInto, simhashScore } from './fingerprint.ts';
import { HashCounts } from './hash-counts.ts';
import { dfFromRecords } from './jobs.ts';
import { sliceDocumentFrequencies } from './kernel-tasks.ts';
import type { SimhashParams } from './params.ts';
import { cleanText, FeatureWeigher, type DfLookup, type WeightingOptions, weightingOptions } from './weights.ts';

/** Differing bits shown with their features, and features shown per bit and among the heaviest. */
const BITS_SHOWN = 6;
const PUSHERS_SHOWN = 3;
const HEAVIEST_SHOWN = 6;

export interface WeighedFeature {
  readonly hi: number;
  readonly lo: number;
  readonly weight: number;
  /** the feature's text (a word, a shingle, `field:value`), or its hash when it is not found */
  readonly text: string;
}

export interface WeighedDocument {
  readonly features: readonly WeighedFeature[];
  /** null when no feature has a positive weight */
  readonly fingerprint: readonly [number, number] | null;
  readonly sums: Float64Array;
}

const hashKey = (hi: number, lo: number): string => `${hi >>> 0}:${lo >>> 0}`;

/** The text of each feature hash of a document: the words or shingles of its clean text, and its metadata features. */
function featureTexts(clean: string, o: WeightingOptions, meta: Readonly<Record<string, string>> | undefined): Map<string, string> {
  const texts = new Map<string, string>();
  const h = new Uint32Array(2);
  const add = (s: string, start: number, end: number): void => {
    hashFeature(s, start, end, o.seeds, h, 0);
    const k = hashKey(h[0] as number, h[1] as number);
    if (!texts.has(k)) texts.set(k, s.slice(start, end));
  };
  if (clean.length > 0) {
    const { starts, ends } = shingleRanges(clean, o.features.unit === 'word' && o.features.size === 1 ? { unit: 'word', size: 1 } : o.features);
    for (let i = 0; i < starts.length; i++) add(clean, starts[i] as number, ends[i] as number);
  }
  for (const field of o.metadata?.fields ?? []) {
    const v = meta?.[field] === undefined ? '' : normalize(meta[field] as string);
    if (v !== '') add(`${field}:${v}`, 0, field.length + 1 + v.length);
  }
  return texts;
}

/** Document frequencies as the run had them: from the df file, or counted over the collection by the kernel's own task. */
export function documentFrequencies(params: SimhashParams, o: WeightingOptions, docs: DocumentSet): DfLookup {
  if (params.document_frequencies.from === 'file') return dfFromRecords(readDfFile(params.document_frequencies.path), o.seeds);
  const entries = sliceDocumentFrequencies({ texts: [...docs.texts], options: o });
  const table = new HashCounts(entries.length / 3);
  for (let i = 0; i < entries.length; i += 3) table.add(entries[i] as number, entries[i + 1] as number, entries[i + 2] as number);
  return { documents: docs.texts.length, get: (hi, lo) => table.get(hi, lo) };
}

/** One document weighed as the run weighed it, its features named, its 64 sums and fingerprint. */
export function weighDocument(o: WeightingOptions, df: DfLookup, text: string, meta?: Readonly<Record<string, string>>): WeighedDocument {
  const f = new FeatureWeigher(o, df).weigh(text, meta);
  const names = featureTexts(cleanText(text, o.strip), o, meta);
  const features: WeighedFeature[] = [];
  for (let i = 0; i < f.count; i++) {
    const hi = f.hi[i] as number;
    const lo = f.lo[i] as number;
    features.push({ hi, lo, weight: f.weight[i] as number, text: names.get(hashKey(hi, lo)) ?? `#${fingerprintToHex(hi, lo)}` });
  }
  const out = new Uint32Array(2);
  const has = simhashInto(f.count, f.hi, f.lo, f.weight, out, 0);
  return { features, fingerprint: has ? [out[0] as number, out[1] as number] : null, sums: Float64Array.from(bitSums(f.count, f.hi, f.lo, f.weight)) };
}

/** Bit j (0: the most significant of hi) of a feature hash. */
export function bitOf(hi: number, lo: number, j: number): 0 | 1 {
  return (((j < 32 ? hi >>> (31 - j) : lo >>> (63 - j)) & 1) as 0 | 1);
}

/** The features that pushed bit j towards `side` (1: added their weight, 0: subtracted it), heaviest first. */
export function pushers(d: WeighedDocument, j: number, side: 0 | 1): WeighedFeature[] {
  return d.features.filter((f) => f.weight > 0 && bitOf(f.hi, f.lo, j) === side).sort((x, y) => y.weight - x.weight || (x.text < y.text ? -1 : 1));
}

const num = (x: number): number => Number(x.toPrecision(6));

async function evidence(params: SimhashParams, ctx: ExplainContext): Promise<Evidence> {
  const o = weightingOptions(params, ctx.seed);
  const df = once(ctx, `simhash-df:${JSON.stringify({ f: o.features, strip: o.strip, seeds: o.seeds, df: params.document_frequencies })}`, () => documentFrequencies(params, o, ctx.docs));
  const A = weighDocument(o, df, ctx.docs.texts.at(ctx.a) as string, ctx.docs.meta?.[ctx.a]);
  const B = weighDocument(o, df, ctx.docs.texts.at(ctx.b) as string, ctx.docs.meta?.[ctx.b]);
  const lines: string[] = [];
  if (!A.fingerprint || !B.fingerprint) {
    const which = !A.fingerprint && !B.fingerprint ? 'neither document has' : !A.fingerprint ? 'A has' : 'B has';
    const summary = `${which} no feature of positive weight: no fingerprint, no pair`;
    return { summary, data: { k: params.k, fingerprint_a: A.fingerprint ? fingerprintToHex(...A.fingerprint) : null, fingerprint_b: B.fingerprint ? fingerprintToHex(...B.fingerprint) : null }, lines: [summary] };
  }
  const [ah, al] = A.fingerprint;
  const [bh, bl] = B.fingerprint;
  const d = hamming(ah, al, bh, bl);
  const bits: number[] = [];
  for (let j = 0; j < 64; j++) if (bitOf(ah, al, j) !== bitOf(bh, bl, j)) bits.push(j);
  const within = d <= params.k;
  const sharedKeys = new Set(A.features.filter((f) => f.weight > 0).map((f) => hashKey(f.hi, f.lo)));
  const inBoth = B.features.filter((f) => f.weight > 0 && sharedKeys.has(hashKey(f.hi, f.lo))).length;
  const positive = (x: WeighedDocument): number => x.features.filter((f) => f.weight > 0).length;
  // Bits closest to flipping first: the smaller |sum| of the two, the nearer the bit was to agreeing.
  const shownBits = [...bits].sort((x, y) => Math.min(Math.abs(A.sums[x] as number), Math.abs(B.sums[x] as number)) - Math.min(Math.abs(A.sums[y] as number), Math.abs(B.sums[y] as number)) || x - y).slice(0, BITS_SHOWN);
  const bitJson = (j: number): JsonValue => {
    const side = (x: WeighedDocument): JsonValue => {
      const bit = bitOf(...(x.fingerprint as [number, number]), j);
      return { bit, sum: num(x.sums[j] as number), pushed_by: pushers(x, j, bit).slice(0, PUSHERS_SHOWN).map((f) => ({ feature: f.text, weight: num(f.weight) })) };
    };
    return { bit: j, a: side(A), b: side(B) };
  };
  const heaviest = (x: WeighedDocument, other: Set<string>): JsonValue[] =>
    [...x.features].sort((p, q) => q.weight - p.weight || (p.text < q.text ? -1 : 1)).slice(0, HEAVIEST_SHOWN).map((f) => ({ feature: f.text, weight: num(f.weight), in_other: other.has(hashKey(f.hi, f.lo)) }));
  const keysB = new Set(B.features.filter((f) => f.weight > 0).map((f) => hashKey(f.hi, f.lo)));
  const w = ctx.width;
  lines.push(`fingerprints A ${fingerprintToHex(ah, al)}, B ${fingerprintToHex(bh, bl)}: ${d} of 64 bits differ`);
  lines.push(`k = ${params.k}: ${within ? 'within, reported' : 'beyond, not reported'} (score 1 − ${d}/64 = ${ratio(simhashScore(d))})`);
  lines.push(`features of positive weight: A ${positive(A)}, B ${positive(B)}, in both ${inBoth}`);
  const heavy = (label: string, x: WeighedDocument, other: Set<string>): void => {
    const parts = (heaviest(x, other) as { feature: string; weight: number; in_other: boolean }[]).map((f) => `${quoted(f.feature, 24)} ${ratio(f.weight)}${f.in_other ? '' : ' (only here)'}`);
    lines.push(fit(`heaviest of ${label}: ${parts.join(', ')}`, w));
  };
  heavy('A', A, keysB);
  heavy('B', B, sharedKeys);
  if (bits.length > 0) lines.push(`differing bits (${bits.length}), the closest to agreeing first: bit, each side's sum and the features that pushed it`);
  for (const j of shownBits) {
    const side = (label: string, x: WeighedDocument): string => {
      const bit = bitOf(...(x.fingerprint as [number, number]), j);
      const by = pushers(x, j, bit).slice(0, PUSHERS_SHOWN).map((f) => `${quoted(f.text, 18)} ${ratio(f.weight)}`);
      return `${label}=${bit} (sum ${ratio(x.sums[j] as number)}: ${by.join(', ')})`;
    };
    lines.push(fit(`  bit ${j}: ${side('A', A)}`, w));
    lines.push(fit(`          ${side('B', B)}`, w));
  }
  return {
    summary: `distance ${d} ${within ? '≤' : '>'} k = ${params.k}: ${within ? 'reported' : 'not reported'}; ${inBoth} features in both of ${positive(A)} and ${positive(B)}`,
    data: {
      k: params.k,
      fingerprint_a: fingerprintToHex(ah, al),
      fingerprint_b: fingerprintToHex(bh, bl),
      distance: d,
      within_k: within,
      score: simhashScore(d),
      differing_bits: bits,
      bits_shown: shownBits.map(bitJson),
      features_a: positive(A),
      features_b: positive(B),
      features_in_both: inBoth,
      heaviest_a: heaviest(A, keysB),
      heaviest_b: heaviest(B, sharedKeys),
    },
    lines: lines.map((l) => fit(l, w)),
  };
}

export const simhashExplain: AdapterExplain<SimhashParams> = { evidence };
