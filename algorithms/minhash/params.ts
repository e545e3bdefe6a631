import { z } from 'zod';
import { fingerprintKind, shingleSpec } from '../text/params.ts';

const weights = z
  .object({
    false_positive: z.number().min(0).max(1).default(0.5).describe('weight of the false positive area when choosing bands and rows'),
    false_negative: z.number().min(0).max(1).default(0.5).describe('weight of the false negative area when choosing bands and rows'),
  })
  .strict()
  .refine((w) => Math.abs(w.false_positive + w.false_negative - 1) < 1e-9, {
    message: 'false_positive + false_negative must be 1 (as datasketch requires)',
  })
  .default({ false_positive: 0.5, false_negative: 0.5 })
  .describe('how bands and rows are chosen for the threshold (datasketch MinHashLSH weights)');

export const minhashParams = z
  .object({
    shingle: shingleSpec,
    fingerprint: fingerprintKind,
    sketch: z
      .enum(['k-permutation', 'one-permutation'])
      .default('k-permutation')
      .describe('k-permutation MinHash (k hash functions) or one-permutation hashing with optimal densification (one, k bins)'),
    permutations: z.number().int().min(1).max(1024).default(128).describe('k: slots per signature (hash functions, or bins of one-permutation hashing)'),
    bits: z
      .number()
      .int()
      .min(1)
      .max(32)
      .nullable()
      .default(null)
      .describe('b-bit MinHash: keep the lowest b bits of each slot (Li and König 2010); null keeps all 61'),
    threshold: z
      .number()
      .gt(0)
      .max(1)
      .default(0.5)
      .describe('t: bands and rows are chosen for it, and a verified pair is a near-duplicate when its score is at least t'),
    bands: z.number().int().min(1).nullable().default(null).describe('b: LSH bands (with rows); null chooses b and r for the threshold'),
    rows: z.number().int().min(1).nullable().default(null).describe('r: slots per band (with bands); null chooses b and r for the threshold'),
    weights,
    verify: z
      .enum(['estimated', 'exact', 'none'])
      .default('estimated')
      .describe('candidate verification: estimated Jaccard from the signatures, exact Jaccard of the fingerprint sets, or none (every candidate)'),
  })
  .strict()
  .superRefine((p, ctx) => {
    if ((p.bands === null) !== (p.rows === null)) {
      ctx.addIssue({ code: 'custom', path: [p.bands === null ? 'bands' : 'rows'], message: 'bands and rows go together: give both, or neither to choose them for the threshold' });
    } else if (p.bands !== null && p.rows !== null && p.bands * p.rows > p.permutations) {
      ctx.addIssue({
        code: 'custom',
        path: ['bands'],
        message: `bands × rows = ${p.bands * p.rows} is more than the ${p.permutations} slots of a signature (permutations)`,
      });
    }
  });

export type MinhashParams = z.output<typeof minhashParams>;
