/**
 * A baseline: what `bench check` compares a run with. Per variant, the quality measures (exact,
 * deterministic) and every timing sample seen, so that a baseline written from several
 * repetitions supports the statistical test.
 */
import { z } from 'zod';
import { DataError, UserError } from '../../errors.ts';
import type { RunRecord, VariantRecord } from '../../results/types.ts';

export const BASELINE_SCHEMA_VERSION = 1;

/** Quality measures compared exactly. */
export const QUALITY_KEYS = ['pairs', 'avg_error', 'correlation', 'precision_docs', 'recall_docs', 'precision_pairs', 'recall_pairs', 'f1_pairs'] as const;
export type QualityKey = (typeof QUALITY_KEYS)[number];

/** Timing measures compared statistically. */
export const TIMING_KEYS = ['runtime_s', 'cpu_s'] as const;
export type TimingKey = (typeof TIMING_KEYS)[number];

const nullableNumber = z.number().nullable();

const baselineSchema = z
  .object({
    schema_version: z.literal(BASELINE_SCHEMA_VERSION),
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
          quality: z.object(Object.fromEntries(QUALITY_KEYS.map((k) => [k, nullableNumber])) as Record<QualityKey, typeof nullableNumber>).strict(),
          timings: z.object(Object.fromEntries(TIMING_KEYS.map((k) => [k, z.array(z.number()).min(1)])) as Record<TimingKey, z.ZodArray<z.ZodNumber>>).strict(),
        })
        .strict(),
    ),
  })
  .strict();

export type Baseline = z.infer<typeof baselineSchema>;
export type BaselineVariant = Baseline['variants'][string];

export function qualityOf(v: VariantRecord): Record<QualityKey, number | null> {
  const { pairs, metrics: m } = v;
  return {
    pairs,
    avg_error: m.avg_error,
    correlation: m.correlation,
    precision_docs: m.precision_docs,
    recall_docs: m.recall_docs,
    precision_pairs: m.precision_pairs,
    recall_pairs: m.recall_pairs,
    f1_pairs: m.f1_pairs,
  };
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
    for (const v of run.variants) {
      const quality = qualityOf(v);
      const seen = variants[v.name];
      if (!seen) {
        variants[v.name] = { algorithm: v.algorithm, ground_truth: v.ground_truth, quality, timings: { runtime_s: [v.runtime_s], cpu_s: [v.cpu_s] } };
        continue;
      }
      for (const k of QUALITY_KEYS) {
        if (seen.quality[k] !== quality[k]) {
          throw new UserError(`${label(i)}: variant ${v.name}: ${k} is ${quality[k]}, ${label(0)} has ${seen.quality[k]}: quality is not deterministic across these runs`);
        }
      }
      seen.timings.runtime_s.push(v.runtime_s);
      seen.timings.cpu_s.push(v.cpu_s);
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
