import { z } from 'zod';
import { placeholdersOf, PLACEHOLDERS } from './placeholders.ts';

const ARG_NAME = /^[a-z][a-z0-9_]*$/;

const argValue = z.union([z.string(), z.number(), z.boolean()]);

export const externalParams = z
  .object({
    program: z
      .string()
      .min(1)
      .optional()
      .describe('the file the command runs (a script or a binary), relative to the config file: `{program}` in `command`; a changed program makes a new run'),
    file: z
      .string()
      .min(1)
      .optional()
      .describe('instead of a command: a file of pairs or clusters produced elsewhere (a Spark job, a notebook), relative to the config file, read as a command\'s output would be (.gz: gzip); what `bench score` runs'),
    interpreter: z
      .string()
      .min(1)
      .optional()
      .describe('the program that runs `program` (e.g. a virtual environment\'s python), relative to the config file: `{interpreter}` in `command` (a name on PATH goes in `command` itself)'),
    command: z
      .array(z.string())
      .min(1)
      .optional()
      .describe(
        'argv of the command, with placeholders {program} {interpreter} {corpus} {output} {seed} and {NAME} for each of `args`; default: [interpreter] program --corpus {corpus} --output {output} --seed {seed} and --NAME VALUE for each of `args`',
      ),
    args: z
      .record(z.string().regex(ARG_NAME, { message: 'an argument name is lower-case letters, digits and _' }), argValue)
      .default({})
      .describe('the detector\'s own parameters, handed to the command as {NAME} placeholders and NDD_ARG_NAME variables; a list is a sweep'),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}).describe('environment variables for the command beyond the harness\' own (placeholders expanded)'),
    text: z
      .enum(['normalized', 'raw'])
      .default('normalized')
      .describe('what the corpus file holds: `normalized`, the text every built-in detector sees (lower case, words separated by one space), or `raw`, the text as the reader gave it'),
    output: z.enum(['pairs', 'clusters']).default('pairs').describe('what the command writes to {output}: `pairs` (doc_a,doc_b[,score] lines) or `clusters` (doc,cluster lines)'),
    score: z
      .enum(['resemblance', 'other', 'none'])
      .default('none')
      .describe('what the third column of a pairs line means: `resemblance` (an estimate of the Jaccard of the shingle sets), `other` (a score in [0, 1] on another scale) or `none` (no score: every pair scores 1)'),
    score_floor: z
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe('with `score: resemblance`: the score from which the command reports every pair it finds (its own threshold); lower scores are not compared'),
    decisions: z
      .enum(['every-reported-pair', 'score-at-threshold'])
      .default('every-reported-pair')
      .describe('which pairs are its near-duplicates: every pair it writes, or those scoring at least evaluate.threshold'),
    timeout_s: z.number().positive().max(604_800).default(3600).describe('seconds the command may run before its whole process tree is stopped and the variant fails'),
  })
  .strict()
  .superRefine((p, ctx) => {
    if ((p.program === undefined) === (p.file === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['program'], message: 'give either `program` (a command to run) or `file` (its output, produced elsewhere)' });
    }
    if (p.file !== undefined && (p.command !== undefined || p.interpreter !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['file'], message: 'a `file` is read, not run: leave `command` and `interpreter` out' });
    }
    const known = new Set([...PLACEHOLDERS, ...Object.keys(p.args)]);
    const written = [...(p.command ?? []), ...Object.values(p.env)];
    for (const name of written.flatMap(placeholdersOf)) {
      if (!known.has(name)) {
        ctx.addIssue({ code: 'custom', path: ['command'], message: `unknown placeholder {${name}} (known: ${[...known].map((k) => `{${k}}`).join(' ')})` });
      }
    }
    if (p.command?.some((a) => a.includes('{interpreter}')) && p.interpreter === undefined) {
      ctx.addIssue({ code: 'custom', path: ['interpreter'], message: 'the command names {interpreter}: give `interpreter`' });
    }
    if (p.score !== 'resemblance' && p.score_floor !== 0) {
      ctx.addIssue({ code: 'custom', path: ['score_floor'], message: 'score_floor applies to `score: resemblance` only' });
    }
    if (p.decisions === 'score-at-threshold' && p.score === 'none') {
      ctx.addIssue({ code: 'custom', path: ['decisions'], message: 'score-at-threshold needs a score: declare `score: resemblance` or `other`' });
    }
    if (p.output === 'clusters' && p.score !== 'none') {
      ctx.addIssue({ code: 'custom', path: ['score'], message: 'clusters carry no score: leave `score` out' });
    }
  });

export type ExternalParams = z.output<typeof externalParams>;
