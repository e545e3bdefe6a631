/**
 * Toy algorithms for the streaming backend's tests (never registered). `toy-words` exercises a
 * map-only job, a combiner, side data and counters; `toy-echo` passes records through untouched.
 *
 *   clean   (map-only) document → (index, lower-cased words joined by single spaces)
 *   counts  word count with a combiner → (word, total occurrences)
 *   postings  side `counts`: for each distinct word of a document that occurs at most `max_df`
 *             times in the collection → (word, doc); reduce → every pair of its documents ("a:b", "1")
 *   scores  sum the shared words of each pair (with a combiner) → ("a:b", shared / (shared + 1))
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DOCUMENTS, InputFileError, type JobSpec } from '../../../../../contract/index.ts';
import { formatScore, type AlgorithmAdapter } from '../../../../../contract/index.ts';

export const toyParams = z
  .object({
    max_df: z.number().int().min(1).default(1000),
    /** The mapper of `clean` throws on a document containing this word (to test failures). */
    fail_on: z.string().nullable().default(null),
    /** The mapper of `clean` throws an InputFileError (a bad file a parameter names) on a document containing this word. */
    bad_file_on: z.string().nullable().default(null),
    /**
     * A folder: the first attempt of one task each of `clean` (map-only), `counts` (map, partitioned)
     * and `scores` (reduce) writes output, then fails; it leaves a marker file there so that the
     * next attempt runs clean (to test task attempts).
     */
    fail_once: z.string().nullable().default(null),
  })
  .strict();
export type ToyParams = z.output<typeof toyParams>;

export function cleanText(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
}

/** True once per `name` (the first caller creates the marker file; any other sees it exists). */
function firstAttempt(params: ToyParams, name: string): boolean {
  if (!params.fail_once) return false;
  try {
    closeSync(openSync(join(params.fail_once, name), 'wx'));
    return true;
  } catch {
    return false;
  }
}

/** Output big enough to be flushed to the task's stdout before it fails: a failed attempt's partial output. */
function emitJunkAndFail(ctx: { emit(key: string, value: string): void }, key: string, value: string, what: string): never {
  for (let i = 0; i < 10_000; i++) ctx.emit(key, value);
  throw new Error(`planted first-attempt failure in ${what}`);
}

const sum = (values: readonly string[]) => values.reduce((s, v) => s + Number(v), 0);

export function toyJobs(params: ToyParams): JobSpec[] {
  return [
    {
      name: 'clean',
      description: 'lower-case words',
      inputs: [DOCUMENTS],
      output: 'clean',
      mapper: (ctx) => ({
        map(doc, text) {
          const words = cleanText(text);
          if (params.fail_on !== null && words.includes(params.fail_on)) throw new Error(`planted failure in document ${doc}`);
          if (params.bad_file_on !== null && words.includes(params.bad_file_on)) throw new InputFileError(`toy.tsv:3: planted bad line`);
          ctx.count('toy', 'documents');
          if (doc === '6' && firstAttempt(params, 'clean-map')) emitJunkAndFail(ctx, '6', 'junk words', 'clean map');
          ctx.emit(doc, words.join(' '));
        },
      }),
    },
    {
      name: 'counts',
      description: 'word count',
      inputs: ['clean'],
      output: 'counts',
      mapper: (ctx) => ({
        map(doc, text) {
          for (const w of text.split(' ')) if (w) ctx.emit(w, '1');
          if (doc === '3' && firstAttempt(params, 'counts-map')) emitJunkAndFail(ctx, 'zebra', '1', 'counts map');
        },
      }),
      combiner: (ctx) => ({ reduce: (w, values) => ctx.emit(w, String(sum(values))) }),
      reducer: (ctx) => ({
        reduce(w, values) {
          ctx.count('toy', 'distinct words');
          ctx.emit(w, String(sum(values)));
        },
      }),
    },
    {
      name: 'postings',
      description: 'pairs of documents sharing a rare word',
      inputs: ['clean'],
      output: 'postings',
      side: ['counts'],
      mapper: (ctx) => {
        const df = new Map(ctx.side('counts').map(([w, c]) => [w, Number(c)]));
        return {
          map(doc, text) {
            for (const w of new Set(text.split(' '))) {
              if (w && (df.get(w) ?? 0) <= params.max_df) ctx.emit(w, doc);
            }
          },
        };
      },
      reducer: (ctx) => ({
        reduce(_w, docs) {
          const sorted = docs.map(Number).sort((x, y) => x - y);
          for (let i = 0; i < sorted.length; i++) {
            for (let j = i + 1; j < sorted.length; j++) ctx.emit(`${sorted[i]}:${sorted[j]}`, '1');
          }
          ctx.count('toy', 'pairs, emitted', (sorted.length * (sorted.length - 1)) / 2);
        },
      }),
    },
    {
      name: 'scores',
      description: 'shared rare words → score',
      inputs: ['postings'],
      output: 'scores',
      mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
      combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sum(values))) }),
      reducer: (ctx) => ({
        reduce(k, values) {
          const shared = sum(values);
          ctx.emit(k, formatScore(shared / (shared + 1)));
          if (firstAttempt(params, 'scores-reduce')) emitJunkAndFail(ctx, k, formatScore(0.5), 'scores reduce');
        },
      }),
    },
  ];
}

export const toyWords: AlgorithmAdapter<typeof toyParams> = {
  name: 'toy-words',
  description: 'toy: documents sharing rare words',
  citation: 'none',
  params: toyParams,
  plan: (params) => ({
    jobs: toyJobs(params),
    output: { pairs: 'scores', score: { kind: 'other', why: 'a toy score' }, decisions: { kind: 'every-reported-pair' } },
  }),
};

const echoParams = z.object({}).strict();

/** `echo`: identity map and identity reduce, for round-trip tests of the record encoding. */
export const toyEcho: AlgorithmAdapter<typeof echoParams> = {
  name: 'toy-echo',
  description: 'toy: identity job',
  citation: 'none',
  params: echoParams,
  plan: () => ({
    jobs: [
      {
        name: 'echo',
        description: 'identity',
        inputs: [DOCUMENTS],
        output: 'echo',
        mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
        reducer: (ctx) => ({
          reduce(k, values) {
            for (const v of values) ctx.emit(k, v);
          },
        }),
      },
    ],
    output: { pairs: 'echo', score: { kind: 'other', why: 'an echo' }, decisions: { kind: 'every-reported-pair' } },
  }),
};

/**
 * `order`: a job whose output depends on the order of the values within a key, as no real job's
 * may: documents grouped by index parity, and each value paired with the one that arrived next.
 * Map-output order gives 0:2, 2:4, … (and 1:3, …); any other order gives other pairs.
 */
export const toyOrder: AlgorithmAdapter<typeof echoParams> = {
  name: 'toy-order',
  description: 'toy: pairs of values that arrive one after the other',
  citation: 'none',
  params: echoParams,
  plan: () => ({
    jobs: [
      {
        name: 'order',
        description: 'consecutive values of a key',
        inputs: [DOCUMENTS],
        output: 'order',
        mapper: (ctx) => ({ map: (k) => ctx.emit(`parity ${Number(k) % 2}`, k) }),
        reducer: (ctx) => ({
          reduce(_k, values) {
            for (let i = 0; i + 1 < values.length; i++) {
              const [a, b] = [Number(values[i]), Number(values[i + 1])].sort((x, y) => x - y);
              ctx.emit(`${a}:${b}`, '1');
            }
          },
        }),
      },
    ],
    output: { pairs: 'order', score: { kind: 'other', why: 'a toy' }, decisions: { kind: 'every-reported-pair' } },
  }),
};

export const toyAdapters: readonly AlgorithmAdapter[] = [toyWords, toyEcho, toyOrder];
