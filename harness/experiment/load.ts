/**
 * Loads an experiment config: parse (with positions), expand `${VAR}`s, validate the
 * config and each algorithm's params, check that named files exist, expand sweeps. Every
 * problem found is collected and thrown as one `ConfigError`, in document order. Each step is a
 * module of config/; this is their order.
 */
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { builtinDetectors, type DetectorCatalog } from '../detectors.ts';
import { ConfigError } from '../errors.ts';
import { calibrationGapProblem, checkMetaFields, checkNames, groundTruthProblem } from './config/checks.ts';
import { absoluteCorpusPaths, checkFiles, fileRefs } from './config/files.ts';
import { configHash } from './config/hash.ts';
import { isRecord, type ConfigScope } from './config/scope.ts';
import { resolveStudyPaths } from './config/studies.ts';
import { expandConfigVariables } from './config/variables.ts';
import { configAlgorithms, expandEntry, groundTruthEntry } from './config/variants.ts';
import { configValues, parseConfig } from './config/yaml.ts';
import type { Env } from './env.ts';
import { addZodIssues, formatPath, IssueList, yamlLocator } from './issues.ts';
import { experimentSchema, type ExperimentInput } from './schema.ts';
import type { BackendConfig, Experiment, Variant } from './types.ts';
import type { Path } from './zod-walk.ts';

// Filled here, not in the schema: the number of CPUs must not end up in `resolved` or its hash.
function withDefaultWorkers(b: NonNullable<ExperimentInput['backend']>): BackendConfig {
  return (b.kind === 'local' ? { ...b, workers: b.workers ?? availableParallelism() } : b) as BackendConfig;
}

export interface LoadOptions {
  /** The variables `${VAR}` expands from (default: the process's environment). */
  readonly env?: Env;
  /** The detectors the config may name (default: the built-in ones it names). */
  readonly detectors?: DetectorCatalog;
  /**
   * For a dry run: a missing `${VAR}` becomes `<VAR>` instead of an error, and the files it
   * names are not looked for, so that a config of a licensed collection plans anywhere.
   */
  readonly withoutCollection?: boolean;
}

/** Reads, expands and validates a config; throws one `ConfigError` listing every problem. */
export async function loadExperiment(file: string, options: LoadOptions = {}): Promise<Experiment> {
  const env = options.env ?? process.env;
  const parsed = await parseConfig(file);
  const { doc, lineCounter } = parsed;
  const issues = new IssueList(file, lineCounter);
  const unexpanded = expandConfigVariables(doc.contents, { env, issues, missing: options.withoutCollection ? 'placeholder' : 'problem' });
  const raw: unknown = configValues(parsed, file);
  const locate = yamlLocator(doc.contents);
  const dir = dirname(resolve(file));

  if (raw === null || raw === undefined) {
    throw new ConfigError([`${file}:1:1: config: the file is empty; an experiment needs at least 'experiment' and 'corpus'`]);
  }
  const top = experimentSchema.safeParse(raw, { reportInput: true });
  if (!top.success) addZodIssues({ issues, locate, base: [], schema: experimentSchema, data: raw }, top.error.issues);
  const refs = fileRefs(raw).filter((r) => !unexpanded.has(formatPath(r.path)));
  await checkFiles(refs, { dir, locate, issues });

  const detectors = options.detectors ?? (await builtinDetectors(configAlgorithms(raw)));
  const scope: ConfigScope = { doc, locate, issues, dir, detectors };
  const gt = expandEntry({ value: groundTruthEntry(raw), path: ['ground_truth'], groundTruth: true }, scope);
  const rawRuns = isRecord(raw) && Array.isArray(raw.runs) ? raw.runs : [];
  const runs = rawRuns.map((r, i) => expandEntry({ value: r, path: ['runs', i], groundTruth: false }, scope));
  checkNames([...(gt?.built ?? []), ...runs.flatMap((r) => r?.built ?? [])], scope);
  const format = isRecord(raw) && isRecord(raw.corpus) && typeof raw.corpus.format === 'string' ? raw.corpus.format : undefined;
  checkMetaFields([...(gt?.built ?? []), ...runs.flatMap((r) => r?.built ?? [])], format, scope);

  if (!top.success || issues.size > 0 || gt === undefined || runs.some((r) => r === undefined)) {
    throw new ConfigError(issues.size > 0 ? issues.lines() : [`${file}: invalid config`]);
  }

  const cfg = top.data;
  const studies = cfg.studies === undefined ? undefined : resolveStudyPaths(cfg.studies, dir);
  const corpus = absoluteCorpusPaths(cfg.corpus, dir);
  const groundTruth = gt.built[0]?.variant as Variant;
  const gtProblem = groundTruthProblem(groundTruth, { detectors, evaluate: cfg.evaluate, seed: cfg.seed });
  if (gtProblem !== undefined) {
    const at: Path = ['ground_truth', 'algorithm'];
    issues.add(locate.value(at), at, gtProblem);
    throw new ConfigError(issues.lines());
  }
  const gaps = calibrationGapProblem([groundTruth, ...runs.flatMap((r) => r?.built.map((b) => b.variant) ?? [])], { detectors, evaluate: cfg.evaluate });
  if (gaps !== undefined) {
    const at: Path = ['evaluate', 'size_groups'];
    issues.add(locate.value(at), at, gaps);
    throw new ConfigError(issues.lines());
  }
  const resolved: unknown = JSON.parse(
    JSON.stringify({
      ...cfg,
      corpus,
      ground_truth: { algorithm: groundTruth.algorithm, params: gt.resolvedParams },
      runs: cfg.runs.map((r, i) => ({ ...r, params: runs[i]?.resolvedParams })),
      ...(studies === undefined ? {} : { studies }),
    }),
  );
  const backend = withDefaultWorkers(cfg.backend);
  const alternativeBackends = (cfg.backends ?? []).map(withDefaultWorkers);
  return {
    file: resolve(file),
    name: cfg.experiment,
    ...(cfg.description === undefined ? {} : { description: cfg.description }),
    seed: cfg.seed,
    hash: configHash(resolved),
    resolved,
    corpus,
    groundTruth,
    variants: runs.flatMap((r) => r?.built.map((b) => b.variant) ?? []),
    evaluate: {
      ...cfg.evaluate,
      ...(cfg.evaluate.oracle === undefined ? {} : { oracle: resolve(dir, cfg.evaluate.oracle) }),
      ...(cfg.evaluate.planted === undefined ? {} : { planted: resolve(dir, cfg.evaluate.planted) }),
      ...(cfg.evaluate.judgments === undefined ? {} : { judgments: { ...cfg.evaluate.judgments, path: resolve(dir, cfg.evaluate.judgments.path) } }),
    },
    backend,
    alternativeBackends,
    ...(studies === undefined ? {} : { studies }),
  };
}

/**
 * The experiment with `corpus.strict` on (`--strict`): every skipped record becomes an error.
 * The hash does not change: a strict run that completes has the results of a lenient one.
 */
export function strictly(exp: Experiment): Experiment {
  return { ...exp, corpus: { ...exp.corpus, strict: true } };
}
