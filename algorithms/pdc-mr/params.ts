import { z } from 'zod';
import { checkIdfRange, idfMax, idfMin } from '../text/params.ts';

const shingles = z
  .object({
    method: z.literal('shingles').describe('n-word shingles of the sentence (Zhang et al. §4.1.1)'),
    n: z.number().int().min(1).max(8).default(4).describe('words per shingle (the paper compares 2, 3 and 4)'),
  })
  .strict();

const spotsigs = z
  .object({
    method: z.literal('spotsigs').describe('spot signatures: an antecedent word and a chain of the content words after it (Theobald et al. 2008; §4.1.3)'),
    antecedents: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(10_000)
      .describe('antecedents: the k words of highest document frequency in the corpus (the paper: 10K for English)'),
    distance: z.number().int().min(1).max(16).default(1).describe('spot distance d: the chain takes every d-th content word after the antecedent'),
    chain: z.number().int().min(1).max(16).default(2).describe('chain length c: content words per signature'),
  })
  .strict();

const imatch = z
  .object({
    method: z.literal('imatch').describe('I-Match: one SHA-1 over the sentence’s words whose idf lies in [idf_min, idf_max] (Chowdhury et al. 2002; §4.1.2)'),
    idf_min: idfMin,
    idf_max: idfMax,
  })
  .strict()
  .superRefine(checkIdfRange);

export const sentenceSignature = z
  .discriminatedUnion('method', [shingles, imatch, spotsigs])
  .default({ method: 'shingles', n: 4 })
  .describe('how a sentence becomes a set of signatures');

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
export type SentenceSignature = z.output<typeof sentenceSignature>;
