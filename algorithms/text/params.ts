/**
 * Parameter schemas for text features that several algorithms share (shingling and
 * fingerprinting), so that every adapter spells them the same way in YAML.
 */
import { z } from 'zod';

export const charShingle = z
  .object({
    unit: z.literal('char').describe('character shingles: n characters of the normalized text, starting at each word'),
    size: z.number().int().min(1).max(4096).default(64).describe('shingle length n in characters (the thesis uses 64)'),
    start: z.literal('word').default('word').describe('where shingles start: at the first character of each word'),
  })
  .strict();

export const wordShingle = z
  .object({
    unit: z.literal('word').describe('word shingles: w consecutive words (Broder; Ye et al.)'),
    size: z.number().int().min(1).max(1024).default(5).describe('shingle length w in words'),
  })
  .strict();

export const shingleSpec = z
  .discriminatedUnion('unit', [charShingle, wordShingle])
  .default({ unit: 'char', size: 64, start: 'word' })
  .describe('how a document is cut into shingles');

export type ShingleSpec = z.output<typeof shingleSpec>;

export const fingerprintKind = z
  .enum(['rabin64', 'md5'])
  .default('rabin64')
  .describe('shingle fingerprint: rabin64 (Rabin 64-bit, the thesis) or md5 (128-bit, Ye et al.)');

export type FingerprintKind = z.output<typeof fingerprintKind>;

/**
 * The idf range of an I-Match lexicon (algorithms/text/lexicon.ts), as two fields so that each
 * can be swept on its own: `idf_min: [0, 0.1, 0.2]` names variants `idf_min=0.1`.
 */
export const idfMin = z
  .number()
  .min(0)
  .max(1)
  .default(0.1)
  .describe('lowest normalized idf, log(N/df)/log(N), of a lexicon term (Zhang et al. 2010 Figure 7: 0.1 best)');

export const idfMax = z
  .number()
  .min(0)
  .max(1)
  .default(1)
  .describe('highest normalized idf of a lexicon term (1 keeps terms of a single unit)');

/** A reversed range is a one-line error on `idf_max`. */
export function checkIdfRange(p: { readonly idf_min: number; readonly idf_max: number }, ctx: z.RefinementCtx): void {
  if (p.idf_min > p.idf_max) {
    ctx.addIssue({ code: 'custom', path: ['idf_max'], message: `must be at least idf_min (${p.idf_min}), got ${p.idf_max}` });
  }
}

/**
 * How a sentence (PDC-MR) or a document (SpotSigs) becomes a set of signatures
 * (`sentence-signatures.ts`; Zhang et al. 2010 §4.1).
 */
const sentenceShingles = z
  .object({
    method: z.literal('shingles').describe('n-word shingles of the sentence (Zhang et al. §4.1.1)'),
    n: z.number().int().min(1).max(8).default(4).describe('words per shingle (the paper compares 2, 3 and 4)'),
  })
  .strict();

const sentenceSpotsigs = z
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

const sentenceImatch = z
  .object({
    method: z.literal('imatch').describe('I-Match: one SHA-1 over the sentence’s words whose idf lies in [idf_min, idf_max] (Chowdhury et al. 2002; §4.1.2)'),
    idf_min: idfMin,
    idf_max: idfMax,
  })
  .strict()
  .superRefine(checkIdfRange);

export const sentenceSignature = z
  .discriminatedUnion('method', [sentenceShingles, sentenceImatch, sentenceSpotsigs])
  .default({ method: 'shingles', n: 4 })
  .describe('how a sentence becomes a set of signatures');

export type SentenceSignature = z.output<typeof sentenceSignature>;
