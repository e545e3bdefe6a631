/**
 * `bench run --dry-run`: what a run would do, as JSON, without reading the collection, without
 * credentials and without network. For EMR it is the complete plan of S3 objects and API
 * requests (harness/mapreduce/emr/plan.ts); for Spark the files to stage and the spark-submit
 * command of each variant (harness/mapreduce/spark/dry-run.ts); for the other backends, the
 * variants and their jobs.
 */
import { findDetector, type DetectorCatalog } from '../detectors.ts';
import { existsSync } from 'node:fs';
import { buildSubset } from '../trec/subset.ts';
import { UserError } from '../errors.ts';
import { emrDryRunPlan } from '../mapreduce/emr/plan.ts';
import { hadoopDryRunPlan } from '../mapreduce/hadoop/dry-run.ts';
import { configuredCostCurves } from '../mapreduce/emr/cost-curves.ts';
import { expansionOf, partVariant } from './expansion.ts';
import type { BackendConfig, Experiment, Variant } from './types.ts';

/** Average GOV2 document size, for the input estimate when only the count is known. */
export const DEFAULT_DOCUMENT_BYTES = 17_000;

export interface DryRunOptions {
  readonly backend: BackendConfig;
  readonly variants: readonly Variant[];
  readonly runId: string;
  readonly reportFloor: number;
  /** the ground truth's (variant-run.ts truthFloor) */
  readonly truthFloor: number;
  readonly documents?: number;
  readonly documentBytes?: number;
}

export async function dryRunPlan(exp: Experiment, detectors: DetectorCatalog, opts: DryRunOptions): Promise<unknown> {
  // A variant of several runs is planned as its runs: trials, or calibration runs (the run with
  // the parameters a calibration chooses is known only after them).
  const planned = opts.variants.flatMap((v, i) => {
    const adapter = findDetector(detectors, v.algorithm);
    if (!adapter) throw new UserError(`${exp.file}: variant ${v.name}: unknown algorithm ${v.algorithm}`);
    const ctx = { minScore: v.groundTruth ? opts.truthFloor : opts.reportFloor, seed: exp.seed };
    const expansion = v.groundTruth ? undefined : expansionOf(adapter, v, exp);
    const runs = expansion ? expansion.runs.map((r) => partVariant(v, r)) : [v];
    // Places as the runner gives them (runner.ts, expanded-variant.ts): the variant's position, and a part's place among its runs.
    return runs.map((x, k) => ({ variant: x.name, algorithm: x.algorithm, params: x.params, ...ctx, plan: adapter.plan(x.params, ctx), position: i + 1, ...(expansion ? { part: k + 1 } : {}) }));
  });
  const count = await documentCount(exp, opts.documents);
  const docs = { kind: 'estimate' as const, count, recordBytes: count * (opts.documentBytes ?? DEFAULT_DOCUMENT_BYTES) };
  if (opts.backend.kind === 'emr') {
    // The user's curve file, else the one the repository ships (docs/emr.md, "Estimates").
    const curves = configuredCostCurves(opts.backend);
    return emrDryRunPlan({ config: opts.backend, variants: planned, docs, runId: opts.runId, bundleBytes: null, curves, textBytes: docs.recordBytes });
  }
  if (opts.backend.kind === 'hadoop') {
    const hadoop = hadoopDryRunPlan(opts.backend, planned, opts.runId);
    return { ...hadoop, experiment: exp.name, runId: opts.runId, documents: docs, summary: hadoop.variants.flatMap((v) => [`# ${v.variant}`, ...v.commands]) };
  }
  if (opts.backend.kind === 'spark') {
    const { sparkDryRunPlan } = await import('../mapreduce/spark/dry-run.ts');
    return { experiment: exp.name, ...sparkDryRunPlan({ config: opts.backend, variants: planned, docs, runId: opts.runId }) };
  }
  return {
    kind: 'plan',
    experiment: exp.name,
    runId: opts.runId,
    backend: opts.backend,
    documents: docs,
    variants: planned.map((p) => ({
      variant: p.variant,
      algorithm: p.algorithm,
      params: p.params,
      jobs: p.plan.jobs.map((j) => ({
        name: j.name,
        description: j.description,
        inputs: j.inputs,
        output: j.output,
        side: j.side ?? [],
        combiner: j.combiner !== undefined,
        reducer: j.reducer !== undefined,
      })),
      output: p.plan.output,
    })),
  };
}

/** The documents a run would read, known without reading the collection. */
async function documentCount(exp: Experiment, given: number | undefined): Promise<number> {
  if (given !== undefined) return given;
  const subsetFiles = exp.corpus.subset ? ('qrels' in exp.corpus.subset ? [exp.corpus.subset.qrels] : exp.corpus.subset.runs) : [];
  if (exp.corpus.subset && subsetFiles.every((f) => existsSync(f))) {
    const subset = await buildSubset(exp.corpus.subset);
    return exp.corpus.limit !== undefined ? Math.min(exp.corpus.limit, subset.ids.size) : subset.ids.size;
  }
  if (exp.corpus.limit !== undefined) return exp.corpus.limit;
  throw new UserError(
    `${exp.file}: --dry-run does not read the collection and ${exp.corpus.subset ? 'the subset files are not here' : 'the config has no subset or limit'}: give --docs N (and --doc-bytes B, default ${DEFAULT_DOCUMENT_BYTES})`,
  );
}
