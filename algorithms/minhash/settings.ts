/**
 * What a MinHash plan needs from its parameters and the plan context, resolved once: the hash
 * functions drawn from the seed, the sketch, and the LSH bands and rows (given, or chosen for the
 * threshold as datasketch chooses them; that search is computed on first use and kept, since
 * only the band and candidate jobs need it).
 */
import type { PlanContext } from '../../contract/index.ts';
import type { FingerprintKind, ShingleSpec } from '../text/params.ts';
import { optimalBandsRows, type BandsRows } from './lsh-params.ts';
import type { MinhashParams } from './params.ts';
import { densifyHash, permutationWords } from './permutations.ts';
import type { SketchSpec } from './sketch.ts';

export type Verify = 'estimated' | 'exact' | 'none';

export interface MinhashSettings {
  readonly shingle: ShingleSpec;
  readonly fingerprint: FingerprintKind;
  readonly seed: number;
  readonly sketch: SketchSpec;
  readonly threshold: number;
  readonly verify: Verify;
  /** the lowest score a verified pair is reported with: the threshold (or the plan's minScore if higher) */
  readonly floor: number;
  /** b and r of the banding */
  lsh(): BandsRows;
}

export function resolveSettings(p: MinhashParams, ctx: PlanContext): MinhashSettings {
  const k = p.permutations;
  let lsh: BandsRows | undefined =
    p.bands !== null && p.rows !== null ? { bands: p.bands, rows: p.rows } : undefined;
  return {
    shingle: p.shingle,
    fingerprint: p.fingerprint,
    seed: ctx.seed,
    sketch: {
      kind: p.sketch,
      k,
      bits: p.bits,
      perms: permutationWords(ctx.seed, p.sketch === 'k-permutation' ? k : 1),
      densify: densifyHash(ctx.seed),
    },
    threshold: p.threshold,
    verify: p.verify,
    floor: Math.max(p.threshold, ctx.minScore),
    lsh: () => (lsh ??= optimalBandsRows(p.threshold, k, p.weights.false_positive, p.weights.false_negative)),
  };
}

/** What the signatures depend on: variants that agree on it share them (map output, kernel cache). */
export function signatureKey(s: MinhashSettings): string {
  return JSON.stringify({
    shingle: s.shingle,
    fingerprint: s.fingerprint,
    sketch: s.sketch.kind,
    k: s.sketch.k,
    bits: s.sketch.bits,
    seed: s.seed,
  });
}
