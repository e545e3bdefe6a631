/**
 * A baseline: what `bench check` compares a run with. Per variant, the quality measures (exact,
 * deterministic) and every timing sample seen, so that a baseline written from several
 * repetitions supports the statistical test.
 */
import { z } from 'zod';
import { DataError, UserError } from '../../errors.ts';
import { exactMeasures } from '../../results/measures.ts';
import { describeWork, sameWork, workOf } from '../../results/replayed.ts';
import type { RunRecord, VariantRecord } from '../../results/types.ts';

export const BASELINE_SCHEMA_VERSION = 2;

const nullableNumber = z.number().nullable();

// Version 1 had a fixed list of quality keys and runtime_s/cpu_s timings: the same shape as a record.
const baselineSchema = z
  .object({
    schema_version: z.union([z.literal(1), z.literal(BASELINE_SCHEMA_VERSION)]),
    experiment: z.string(),
    config_hash: z.string(),
    created_at: z.string(),
    commit: z.string().nullable(),
    runs: z.array(z.string()),
    variants: z.record(
      z.string(),
      z
        .object({
          algorithm: z.string(),
          ground_truth: z.boolean(),
          /** the measures compared exactly (count and quality kinds of the run's measures) */
          quality: z.record(z.string(), nullableNumber),
          /** every sample of the timing measures */
          timings: z.record(z.string(), z.array(z.number()).min(1)),
          /** the stored values the variant replayed and computed (results/replayed.ts): its timings are of that kind of run; absent in older baselines */
          replayed: z.array(z.string()).optional(),
          computed: z.array(z.string()).optional(),
        })
        .strict(),
    ),
  })
  .strict();

export type Baseline = z.infer<typeof baselineSchema>;
export type BaselineVariant = Baseline['variants'][string];

/** The measures of `run` that `bench check` compares exactly, by key. */
export function qualityKeys(run: RunRecord): string[] {
  return exactMeasures(run.measures).map((m) => m.key);
}

/** The measures of `run` that `bench check` compares statistically. */
export function timingKeys(run: RunRecord): string[] {
  return run.measures.filter((m) => m.kind === 'timing').map((m) => m.key);
}

export function qualityOf(run: RunRecord, v: VariantRecord): Record<string, number | null> {
  return Object.fromEntries(qualityKeys(run).map((k) => [k, v.measures[k] ?? null]));
}

/** The runs must be repetitions of one config; `runIds` name them in errors. */
export function assertRepetitions(runs: readonly RunRecord[], label: (i: number) => string): void {
  const first = runs[0];
  if (!first) throw new UserError('no run folders given');
  runs.forEach((r, i) => {
    if (r.experiment !== first.experiment) throw new UserError(`${label(i)}: experiment is "${r.experiment}", ${label(0)} is "${first.experiment}": give runs of one experiment`);
    if (r.config_hash !== first.config_hash) throw new UserError(`${label(i)}: config_hash differs from ${label(0)}: repetitions must use the same config`);
  });
}

/** A baseline from one or more runs of the same config; their quality must agree (it is deterministic). */
export function baselineFromRuns(runs: readonly RunRecord[], label: (i: number) => string, now: Date): Baseline {
  assertRepetitions(runs, label);
  const first = runs[0] as RunRecord;
  const variants: Record<string, BaselineVariant> = {};
  runs.forEach((run, i) => {
    const timing = timingKeys(run);
    for (const v of run.variants) {
      const quality = qualityOf(run, v);
      const seen = variants[v.name];
      if (!seen) {
        const timings = Object.fromEntries(timing.flatMap((k) => (typeof v.measures[k] === 'number' ? [[k, [v.measures[k]]]] : [])));
        const work = workOf(v);
        variants[v.name] = { algorithm: v.algorithm, ground_truth: v.ground_truth, quality, timings, replayed: [...work.replayed], computed: [...work.computed] };
        continue;
      }
      // Timings of runs that did different work are not samples of one thing.
      const seenWork = { replayed: seen.replayed ?? [], computed: seen.computed ?? [] };
      if (!sameWork(workOf(v), seenWork)) {
        throw new UserError(`${label(i)}: variant ${v.name} ${describeWork(workOf(v))}, ${label(0)} ${describeWork(seenWork)}: a baseline's runs must be of one kind (uninterrupted, and all with or all without --no-stored-values)`);
      }
      for (const [k, x] of Object.entries(quality)) {
        if (seen.quality[k] !== x) {
          throw new UserError(`${label(i)}: variant ${v.name}: ${k} is ${x}, ${label(0)} has ${seen.quality[k]}: quality is not deterministic across these runs`);
        }
      }
      for (const k of timing) {
        const x = v.measures[k];
        if (typeof x === 'number') (seen.timings[k] ??= []).push(x);
      }
    }
  });
  return {
    schema_version: BASELINE_SCHEMA_VERSION,
    experiment: first.experiment,
    config_hash: first.config_hash,
    created_at: now.toISOString(),
    commit: first.git.commit,
    runs: runs.map((r) => r.run_id),
    variants,
  };
}

export function parseBaseline(text: string, file: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DataError(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  const r = baselineSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = issue?.path.length ? issue.path.map(String).join('.') : '(top level)';
    throw new DataError(`${file}: ${path}: ${issue?.message ?? 'invalid baseline'}`);
  }
  return r.data;
}
