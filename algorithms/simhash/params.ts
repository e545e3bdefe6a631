/**
 * simhash's parameters (Seshasai 2009; Manku, Jain and Das Sarma 2007). With no params it is the
 * thesis' original simhash: words weighted by tf-idf over the corpus, 64-bit fingerprints, pairs
 * within Hamming distance 3. Each Table 6.1 variant is one field; `true` switches it on with the
 * value the thesis used, a number sets it.
 */
import { existsSync, statSync } from 'node:fs';
import { z } from 'zod';
import { InputFileError } from '../../contract/errors.ts';
import { charShingle, wordShingle } from '../text/params.ts';
import { readDfFile } from './df-file.ts';
import { MAX_TABLES, tableCount } from './tables.ts';

const wordFeatures = wordShingle.extend({
  unit: z.literal('word').describe('word features: w consecutive words; w = 1 is the bag of words of the thesis'),
  size: z.number().int().min(1).max(1024).default(1).describe('w: words per feature (1: single words, the thesis)'),
});

export const featureSpec = z
  .discriminatedUnion('unit', [wordFeatures, charShingle])
  .default({ unit: 'word', size: 1 })
  .describe('what a feature is: words (default), word shingles or character shingles');

const dfFromCorpus = z
  .object({ from: z.literal('corpus').describe('count document frequencies over the corpus in a job, frozen for the run (thesis §3.3)') })
  .strict();

/** Problems of a df file by path, size and time: a sweep's variants validate the same file once. */
const checked = new Map<string, string | undefined>();

/** Why the df file cannot be used (the loader's own one-line message), or undefined: checked when the config loads, not midway through a run. */
function dfFileProblem(path: string): string | undefined {
  const s = statSync(path, { throwIfNoEntry: false });
  const key = `${path}\0${s?.size}\0${s?.mtimeMs}`;
  if (!checked.has(key)) {
    try {
      readDfFile(path);
      checked.set(key, undefined);
    } catch (e) {
      if (!(e instanceof InputFileError)) throw e;
      checked.set(key, e.message);
    }
  }
  return checked.get(key);
}

const dfFromFile = z
  .object({
    from: z.literal('file').describe('load document frequencies from a file'),
    path: z
      .string()
      .min(1)
      .refine((p) => existsSync(p), { error: (issue) => `no such file: ${String(issue.input)} (absolute, or relative to the config file's directory)` })
      .superRefine((p, ctx) => {
        if (!existsSync(p)) return;
        const problem = dfFileProblem(p);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('TSV file of `feature<TAB>df` lines and one `<TAB>N` line (N = documents counted), .gz allowed, relative to the config file; read where the tasks run (local, streaming)'),
  })
  .strict();

const metadata = z
  .object({
    fields: z
      .array(z.string().regex(/^[a-z][a-z0-9_]*$/, 'a meta field name: lower-case letters, digits and _'))
      .min(1)
      .describe("the document's meta fields added as features, one feature each (mail: subject, from; web: title, url)"),
    share: z.number().gt(0).max(10).default(1).describe("a metadata feature's weight as a share of the document's largest weight"),
  })
  .strict();

const fraction = (what: string) => z.number().gt(0).lt(1).describe(what);

export const simhashParams = z
  .object({
    k: z
      .number()
      .int()
      .min(0, 'k must be 0 or more')
      .max(64, 'k must be at most 64: fingerprints have 64 bits')
      .default(3)
      .describe('Hamming distance: documents whose fingerprints differ in at most k of 64 bits are near-duplicates (Manku: 3)'),
    blocks: z
      .union([z.literal('auto'), z.number().int().min(1).max(64)])
      .default('auto')
      .describe('Manku tables: the 64 bits are cut into this many blocks, one table per choice of k blocks that may differ (auto: keys of at least 16 bits; every pair compared when k >= 9)'),
    features: featureSpec,
    idf: z
      .enum(['inverse', 'log'])
      .default('inverse')
      .describe('weight = tf × idf with idf = 1/df (inverse, the thesis §3.3) or log(N/df)'),
    document_frequencies: z
      .discriminatedUnion('from', [dfFromCorpus, dfFromFile])
      .default({ from: 'corpus' })
      .describe('where document frequencies come from'),
    metadata: metadata.optional().describe('extra metadata features (thesis §4.1, "Extra Metadata")'),
    strip_numbers_dates: z
      .boolean()
      .default(false)
      .describe('drop words with a digit and month and weekday names before forming features (thesis §4.2)'),
    low_threshold: z
      .union([z.boolean(), fraction('c')])
      .default(false)
      .describe('set weights under c × the largest weight to 0 (thesis §5.1; true: c = 0.01)'),
    high_threshold: z
      .union([z.boolean(), fraction('c')])
      .default(false)
      .describe('keep only weights over c × the largest weight (thesis §5.1; true: c = 0.5)'),
    top_features: z
      .union([z.literal(false), z.number().int().min(1)])
      .default(false)
      .describe('keep only the n largest weights (thesis §5.1: 20)'),
    position: z
      .enum(['none', 'log', 'cosine'])
      .default('none')
      .describe('scale each occurrence by its position x (0-based) of L: log = ln(x+e)/(x+e) (§5.2), cosine = cos(2πx/L)+1 (§5.3)'),
    tag_boost: z
      .union([z.boolean(), z.number().gt(0).max(100)])
      .default(false)
      .describe('multiply the weight of features in title, h1-h3, b, i and a text (meta `tagged`) by this (§5.4; true: 1.5)'),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.blocks === 'auto') return;
    if (p.k > 0 && p.blocks <= p.k) {
      ctx.addIssue({ code: 'custom', path: ['blocks'], message: `blocks must exceed k (${p.k}): pairs within distance k must agree on a whole block` });
    } else if (tableCount(p.blocks, p.k) > MAX_TABLES) {
      ctx.addIssue({
        code: 'custom',
        path: ['blocks'],
        message: `blocks = ${p.blocks} with k = ${p.k} makes ${tableCount(p.blocks, p.k)} tables, more than ${MAX_TABLES}: choose fewer blocks`,
      });
    }
  });

export type SimhashParams = z.output<typeof simhashParams>;
export type FeatureSpec = z.output<typeof featureSpec>;
