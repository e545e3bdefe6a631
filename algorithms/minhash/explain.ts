/**
 * MinHash-LSH's evidence about a pair (contract/explain.ts, issue 26): both signatures as the
 * signatures job makes them, the bands of b × r slots in which they collided (a pair is a
 * candidate when one band agrees in all r rows), the slots that agree and the estimate they
 * give (or the exact Jaccard with `verify: exact`) against the threshold, beside the exact
 * Jaccard of the two fingerprint sets and the chance 1 − (1 − J^r)^b that a pair of that
 * Jaccard becomes a candidate at all.
 */
import type { AdapterExplain, Evidence, ExplainContext } from '../../contract/index.ts';
import { distinctFingerprints } from '../text/distinct.ts';
import { fit, ratio } from '../text/explain-lines.ts';
import { fingerprintHex, shingleFingerprints } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import { decodeSignature, encodeSignature, matchingSlotStrings } from './codec.ts';
import { estimateResemblance } from './estimate.ts';
import { HashKernel } from './hash-kernel.ts';
import { candidateProbability } from './lsh-params.ts';
import type { MinhashParams } from './params.ts';
import { resolveSettings, type MinhashSettings } from './settings.ts';
import { residuesOf, signatures } from './sketch.ts';

/** Colliding bands listed by number, at most. */
const BANDS_SHOWN = 16;

interface Signed {
  /** distinct fingerprints, hex */
  readonly fingerprints: ReadonlySet<string>;
  /** the k slot strings (codec.ts), empty without fingerprints */
  readonly slots: readonly string[];
}

let kernel: HashKernel | undefined;

/** A document's signature exactly as `signaturesJob` computes it. */
export function signed(s: MinhashSettings, text: string): Signed {
  const fps = distinctFingerprints(shingleFingerprints(normalize(text), s.shingle, s.fingerprint));
  const fingerprints = new Set(Array.from({ length: fps.count }, (_, i) => fingerprintHex(fps.data, i, fps.width)));
  if (fps.count === 0) return { fingerprints, slots: [] };
  const sig = signatures({ residues: residuesOf(fps.data, fps.count, fps.width), starts: Uint32Array.of(0, fps.count) }, s.sketch, (kernel ??= new HashKernel()));
  return { fingerprints, slots: decodeSignature(encodeSignature(fps.count, sig.values, 0, s.sketch.k)).slots };
}

function evidence(params: MinhashParams, ctx: ExplainContext): Evidence {
  const s = resolveSettings(params, { minScore: Number.MIN_VALUE, seed: ctx.seed });
  const { bands, rows } = s.lsh();
  const A = signed(s, ctx.docs.texts.at(ctx.a) as string);
  const B = signed(s, ctx.docs.texts.at(ctx.b) as string);
  const common = [...A.fingerprints].filter((f) => B.fingerprints.has(f)).length;
  const union = A.fingerprints.size + B.fingerprints.size - common;
  const jaccard = union === 0 ? null : common / union;
  const k = s.sketch.k;
  const empty = A.slots.length === 0 || B.slots.length === 0;
  const collided: number[] = [];
  if (!empty) {
    for (let j = 0; j < bands; j++) {
      let agree = true;
      for (let r = j * rows; r < j * rows + rows && agree; r++) agree = A.slots[r] === B.slots[r];
      if (agree) collided.push(j);
    }
  }
  const matches = empty ? 0 : matchingSlotStrings(A.slots, B.slots);
  const estimate = empty ? null : estimateResemblance(matches, k, s.sketch.bits, A.fingerprints.size, B.fingerprints.size);
  const candidate = collided.length > 0;
  const score = !candidate ? null : s.verify === 'none' ? collided.length / bands : s.verify === 'exact' ? jaccard : estimate;
  const reported = candidate && score !== null && (s.verify === 'none' || score >= s.floor);
  const chance = jaccard === null ? null : candidateProbability(jaccard, bands, rows);
  const verifyText =
    s.verify === 'none' ? 'no verification: every candidate is reported, scored by the share of bands it collided in' : `verified by the ${s.verify === 'exact' ? 'exact' : 'estimated'} Jaccard ≥ ${s.floor}`;
  const w = ctx.width;
  const lines = [
    `${k} slots (${s.sketch.kind}${s.sketch.bits === null ? '' : `, ${s.sketch.bits}-bit`}) in ${bands} bands of ${rows} rows; ${verifyText}`,
    candidate
      ? `collided in ${collided.length} of ${bands} bands: ${collided.slice(0, BANDS_SHOWN).join(', ')}${collided.length > BANDS_SHOWN ? ', …' : ''}: a candidate`
      : `collided in no band: not a candidate`,
    `slots that agree: ${matches} of ${k}: estimated Jaccard ${ratio(estimate)}; exact Jaccard ${ratio(jaccard)} (${common} of ${union} fingerprints)`,
    `chance that a pair at the exact Jaccard collides in some band: 1 − (1 − J^${rows})^${bands} = ${ratio(chance)}`,
    `${reported ? 'reported' : 'not reported'}${score === null ? '' : ` with score ${ratio(score)}`}`,
  ];
  return {
    summary: `${candidate ? `candidate by ${collided.length} of ${bands} bands` : 'no band collided'}; estimate ${ratio(estimate)} against exact ${ratio(jaccard)}: ${reported ? 'reported' : 'not reported'}`,
    data: {
      slots: k,
      bands,
      rows,
      verify: s.verify,
      threshold: s.floor,
      colliding_bands: collided,
      candidate,
      matching_slots: matches,
      estimate,
      exact_jaccard: jaccard,
      fingerprints_a: A.fingerprints.size,
      fingerprints_b: B.fingerprints.size,
      fingerprints_shared: common,
      candidate_chance: chance,
      score,
      reported,
    },
    lines: lines.map((l) => fit(l, w)),
  };
}

export const minhashExplain: AdapterExplain<MinhashParams> = { evidence };
