/**
 * The run's first step, before anything is written: load the config, pick the variants, the
 * backend and the run id, fingerprint the inputs, and find out what is at the results path (a
 * complete run of these inputs is kept; a run of other inputs, or not a run at all, is not
 * replaced without `--force`). A dry run ends here with its plan.
 */
import { createHash } from 'node:crypto';
import { builtinDetectors, type DetectorCatalog } from '../detectors.ts';
import { UserError } from '../errors.ts';
import { verifyRunFiles } from '../results/manifest.ts';
import { checkRunId } from '../results/run-id.ts';
import { RunFolder } from '../results/run-folder.ts';
import type { InputsFingerprint, RunRecord } from '../results/types.ts';
import { chooseBackend } from './backend-choice.ts';
import { dryRunPlan } from './dry-run.ts';
import { filterVariants } from './config/only.ts';
import { fingerprintInputs, inputChanges } from './inputs.ts';
import { loadExperiment, strictly } from './load.ts';
import type { BackendConfig, Experiment } from './types.ts';
import { planGroundTruth, planVariant, REPORT_FLOOR, type PlannedVariant } from './variant-run.ts';

/** What the preparing step needs of the run's options (runner.ts RunOptions). */
export interface PrepareOptions {
  readonly configFile: string;
  readonly outRoot: string;
  readonly only: readonly string[];
  readonly runId?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly detectors?: DetectorCatalog;
  readonly backendKind?: string;
  readonly skips: 'config' | 'fail';
  readonly identifyFilesBy: 'stat' | 'content';
  readonly complete: 'keep' | 'replace';
  readonly dryRun?: { readonly documents?: number; readonly documentBytes?: number };
  /** the experiment as loaded, made into the one to run (`bench score`: files as its variants) */
  readonly reshape?: (exp: Experiment) => Experiment;
}

/** A run to do. */
export interface PreparedRun {
  readonly exp: Experiment;
  readonly backend: BackendConfig;
  readonly runId: string;
  readonly inputs: InputsFingerprint;
  /** where the run's folder goes */
  readonly finalDir: string;
  /** the ground truth, then the selected variants, each planned once */
  readonly planned: readonly PlannedVariant[];
  readonly detectors: DetectorCatalog;
}

export type Preparation =
  | { readonly kind: 'run'; readonly run: PreparedRun }
  | { readonly kind: 'dry-run'; readonly plan: unknown }
  | { readonly kind: 'already-complete'; readonly dir: string };

export async function prepareRun(o: PrepareOptions): Promise<Preparation> {
  const loaded = await loadExperiment(o.configFile, { env: o.env, detectors: o.detectors, withoutCollection: o.dryRun !== undefined });
  // The ones the config names, as loadExperiment loaded them (a module is loaded once).
  const configured = o.detectors ?? (await builtinDetectors([loaded.groundTruth.algorithm, ...loaded.variants.map((v) => v.algorithm)]));
  // `bench score`: the experiment made into the one to run, and the detectors its variants name.
  const shaped = o.reshape ? o.reshape(loaded) : loaded;
  const detectors = shaped === loaded || o.detectors ? configured : await builtinDetectors([shaped.groundTruth.algorithm, ...shaped.variants.map((v) => v.algorithm)]);
  const exp = o.skips === 'fail' ? strictly(shaped) : shaped;
  const variants = o.only.length > 0 ? filterVariants(exp, [...o.only]) : exp.variants;
  const backend = chooseBackend(exp, o.backendKind);
  const runId = checkRunId(o.runId ?? defaultRunId(exp, o.only, backend));
  // Planned once: the plans name the worker modules the runtime preloads, and then run.
  const plannedVariants = variants.map((v) => planVariant(exp, detectors, v, REPORT_FLOOR));
  const truth = planGroundTruth(exp, detectors, plannedVariants);
  const planned = [truth, ...plannedVariants];
  refuseMisplaced(exp, backend, planned);
  if (o.dryRun) {
    const plan = await dryRunPlan(exp, detectors, {
      backend,
      variants: [exp.groundTruth, ...variants],
      runId,
      reportFloor: REPORT_FLOOR,
      truthFloor: truth.minScore,
      ...o.dryRun,
    });
    return { kind: 'dry-run', plan };
  }
  const finalDir = RunFolder.finalPath(o.outRoot, exp.name, runId);
  const inputs = await fingerprintInputs(exp, o.identifyFilesBy, detectors);
  if (existingRunIsCurrent(finalDir, exp.name, runId, inputs, o.complete)) return { kind: 'already-complete', dir: finalDir };
  return { kind: 'run', run: { exp, backend, runId, inputs, finalDir, planned, detectors } };
}

/** A plan only one backend can run (contract/process.ts `Placement`) on another: one line, before anything runs. */
export function refuseMisplaced(exp: Experiment, backend: BackendConfig, planned: readonly PlannedVariant[]): void {
  for (const p of planned) {
    const only = p.plan.placement;
    if (only && only.only !== backend.kind) {
      throw new UserError(`${exp.file}: variant ${p.variant.name}: the ${backend.kind} backend cannot run algorithm ${p.variant.algorithm} (${only.why}): run it on the ${only.only} backend`);
    }
  }
}

/**
 * Whether the run at `finalDir` is complete, of these inputs, and may be kept; throws a one-line
 * UserError when something else is there, or when replacing it needs `--force`.
 */
export function existingRunIsCurrent(finalDir: string, experiment: string, runId: string, inputs: InputsFingerprint, complete: 'keep' | 'replace'): boolean {
  const at = RunFolder.inspect(finalDir, experiment, runId);
  if (at.kind === 'absent') return false;
  if (at.kind === 'foreign') throw new UserError(`${finalDir} exists and is not a run folder (${at.why}): refusing to replace it; give another --run-id or --out`);
  if (complete === 'replace') return false;
  const run = at.run as Partial<RunRecord>;
  const missing = Array.isArray(run.files) ? verifyRunFiles(finalDir, run.files) : 'its run.json lists no files (written by an older version)';
  if (missing !== undefined) throw new UserError(`${finalDir} is an incomplete run (${missing}): --force replaces it`);
  const changes = run.inputs ? inputChanges(run.inputs, inputs) : ['its run.json records no inputs (written by an older version)'];
  if (changes.length > 0) {
    throw new UserError(`${finalDir} is a complete run of this config on other inputs (${changes.join('; ')}): --force replaces it, or give another --run-id`);
  }
  return true;
}

/** The run id is the cache key: the same config and variant selection give the same folder. */
function defaultRunId(exp: Experiment, only: readonly string[], backend: BackendConfig): string {
  const h = createHash('sha256').update(exp.hash).update(JSON.stringify([...only].sort()));
  // The config's own backend is part of its hash already; another one makes another run.
  if (backend !== exp.backend) h.update(JSON.stringify(backend));
  return h.digest('hex').slice(0, 12);
}
