/**
 * The measured points a cost curve is fitted to: per variant (an algorithm and its parameters),
 * the CPU-seconds one run spent on a corpus of so many documents and megabytes of text. They
 * come from finished runs' run.json (`bench cost-curve`), are kept in a JSON file, and the
 * repository ships the ones behind its own estimates (`data/emr/cost-curves.json`, docs/emr.md).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DataError } from '../../errors.ts';

export const DEFAULT_COST_CURVES_PATH = fileURLToPath(new URL('../../../data/emr/cost-curves.json', import.meta.url));

const pointSchema = z.strictObject({
  variant: z.string(),
  algorithm: z.string(),
  params: z.unknown(),
  documents: z.number().int().positive(),
  text_bytes: z.number().positive(),
  cpu_s: z.number().nonnegative(),
  /** the run it was measured in, `experiment/run-id` */
  run: z.string(),
});

export const costCurvesSchema = z.strictObject({
  description: z.string(),
  /** how the points were measured: the commands, the backend, the machine */
  measured: z.string(),
  points: z.array(pointSchema).min(1),
});

export type CostCurvePoint = z.output<typeof pointSchema>;
export type CostCurves = z.output<typeof costCurvesSchema>;

export function parseCostCurves(text: string, file: string): CostCurves {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DataError(`${file}: not JSON: ${(e as Error).message}`);
  }
  const r = costCurvesSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new DataError(`${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

export function loadCostCurves(file: string = DEFAULT_COST_CURVES_PATH): CostCurves {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new DataError(`${file}: cannot read the cost curves: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseCostCurves(text, file);
}

/** The curves a config names (`backend.cost_curve`), else the ones the repository ships, with the name to show. */
export function configuredCostCurves(c: { readonly cost_curve?: string | undefined }): { readonly curves: CostCurves; readonly file: string } {
  return { curves: loadCostCurves(c.cost_curve ?? DEFAULT_COST_CURVES_PATH), file: c.cost_curve ?? 'data/emr/cost-curves.json' };
}

/** A key equal for equal parameters however their keys are ordered. */
export function variantKey(algorithm: string, params: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify([algorithm, canonical(params)]);
}

/** The part of a run.json (results/types.ts RunRecord) a curve reads. */
export interface CurveRun {
  readonly experiment: string;
  readonly run_id: string;
  readonly backend: { readonly kind: string };
  readonly corpus: { readonly documents: number; readonly text_bytes?: number };
  readonly variants: readonly {
    readonly name: string;
    readonly algorithm: string;
    readonly params: unknown;
    readonly measures: Readonly<Record<string, number | null>>;
    readonly trials?: unknown;
  }[];
}

/**
 * One point per variant of each run: its CPU-seconds run alone (`standalone_cpu_s`, which
 * includes the shared values it reused, as an EMR step computes them itself), else `cpu_s`.
 * A run without the size of its text is refused, naming it; variants without CPU are skipped.
 */
export function curvePointsOf(runs: readonly CurveRun[]): CostCurvePoint[] {
  const out: CostCurvePoint[] = [];
  for (const r of runs) {
    const bytes = r.corpus.text_bytes;
    if (bytes === undefined) {
      throw new DataError(`run ${r.experiment}/${r.run_id}: its run.json predates corpus.text_bytes; run it again for a cost curve`);
    }
    for (const v of r.variants) {
      const cpu = v.measures['standalone_cpu_s'] ?? v.measures['cpu_s'];
      if (typeof cpu !== 'number' || v.trials !== undefined) continue;
      out.push({ variant: v.name, algorithm: v.algorithm, params: v.params, documents: r.corpus.documents, text_bytes: bytes, cpu_s: cpu, run: `${r.experiment}/${r.run_id}` });
    }
  }
  return out;
}
