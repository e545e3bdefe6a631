import { z } from 'zod';
import { fingerprintKind, shingleSpec } from '../text/params.ts';

const filters = z
  .object({
    length: z.boolean().default(true).describe('length filter: pair a set of size n only with sets of size >= t·n'),
    prefix: z.boolean().default(true).describe('prefix filter: candidates must share a token among their rarest ones (off: any shared token)'),
    position: z.boolean().default(true).describe('position filter (PPJoin): drop a candidate whose prefix positions leave too few tokens to reach t'),
    suffix: z.boolean().default(false).describe('suffix filter (PPJoin+): bound the difference of the suffixes by binary-search partitioning'),
    signature: z.boolean().default(true).describe("signature filter (MapDupReducer): drop a pair whose token bitmaps differ in more bits than the pair's allowed difference"),
  })
  .strict()
  .default({ length: true, prefix: true, position: true, suffix: false, signature: true })
  .describe('which filters run before exact verification; switching one off never changes the pairs, only the work');

export const ppjoinParams = z
  .object({
    threshold: z
      .number()
      .gt(0, 'threshold must be in (0, 1]')
      .lte(1, 'threshold must be in (0, 1]')
      .describe('Jaccard threshold t in (0, 1]: every pair with RR >= t is reported with its exact RR'),
    shingle: shingleSpec.describe("tokens: the shingle set Broder's adapter uses (words: { unit: word, size: 1 })"),
    fingerprint: fingerprintKind,
    filters,
    suffix_depth: z.number().int().min(1).max(8).default(2).describe('recursion depth of the suffix filter (MAXDEPTH in Xiao et al.)'),
    signature_bits: z
      .number()
      .int()
      .min(32)
      .max(4096)
      .refine((b) => (b & (b - 1)) === 0, 'signature_bits must be a power of two')
      .default(256)
      .describe('bits of the signature bitmap, a power of two from 32 to 4096'),
  })
  .strict();

export type PPJoinParams = z.output<typeof ppjoinParams>;
export type PPJoinFilters = PPJoinParams['filters'];
