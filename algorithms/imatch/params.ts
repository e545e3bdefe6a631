import { z } from 'zod';
import { checkIdfRange, idfMax, idfMin } from '../text/params.ts';

export const imatchParams = z
  .object({
    idf_min: idfMin,
    idf_max: idfMax,
    extra_lexicons: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe('K: randomized lexicons beside the base one (Kołcz et al. 2004); a pair sharing any of the K+1 signatures is a duplicate'),
    drop: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.33)
      .describe('p: fraction of the lexicon terms each extra lexicon drops at random (seeded), 0 < p < 1'),
  })
  .strict()
  .superRefine(checkIdfRange);

export type ImatchParams = z.output<typeof imatchParams>;
