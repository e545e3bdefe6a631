import { z } from 'zod';

export const spotSigsParams = z
  .object({
    antecedents: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(5)
      .describe('antecedents: the k words of highest document frequency (Theobald et al. found five common words beat a full stopword list)'),
    distance: z.number().int().min(1).max(16).default(1).describe('spot distance d: the chain takes every d-th content word after the antecedent'),
    chain: z.number().int().min(1).max(16).default(2).describe('chain length c: content words per signature'),
    tau: z
      .number()
      .gt(0, { message: 'tau must be above 0 (documents sharing no signature are never near-duplicates)' })
      .max(1, { message: 'tau is a Jaccard threshold and must be at most 1' })
      .default(0.5)
      .describe('τ: documents whose spot-signature sets have Jaccard at least τ are near-duplicates'),
  })
  .strict();

export type SpotSigsParams = z.output<typeof spotSigsParams>;
