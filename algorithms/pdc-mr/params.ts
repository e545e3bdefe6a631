import { z } from 'zod';
import { sentenceSignature } from '../text/params.ts';

export const pdcMrParams = z
  .object({
    signature: sentenceSignature,
    tau: z
      .number()
      .gt(0, { message: 'tau must be above 0 (sentences sharing no signature are never near-duplicates)' })
      .max(1, { message: 'tau is a Jaccard threshold and must be at most 1' })
      .default(0.9)
      .describe('τ: sentences with Jaccard at least τ are near-duplicates (the paper’s best: 0.9)'),
    gamma: z.number().int().min(1).max(1000).default(3).describe('γ: a run must hold at least γ consecutive sentence pairs (the paper: 3)'),
  })
  .strict();

export type PdcMrParams = z.output<typeof pdcMrParams>;
