/**
 * `bench score CONFIG FILE…`: files of pairs or clusters produced elsewhere become the variants
 * of a run of the config in place of its own runs, each read by the adapter that reads such files
 * (`AlgorithmAdapter.paramsForFile`), and scored against the config's ground truth like any run;
 * the run folder, the report, the leaderboard and `bench check` then treat them as any variant.
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { AlgorithmAdapter, FileDeclaration } from '../../contract/index.ts';
import { quote, UserError } from '../errors.ts';
import { configHash } from './config/hash.ts';
import type { Experiment, Variant } from './types.ts';

export interface ScoredFiles {
  /** as the user gave them: relative to the working directory */
  readonly files: readonly string[];
  readonly declared: FileDeclaration;
  /** a variant name for each file, in order; default the file's name without `.gz` and `.csv` */
  readonly names?: readonly string[];
}

const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._=,-]*$/;

/** The variant name a file gets by default: `spark-run.csv.gz` → `spark-run`. */
export function defaultVariantName(file: string): string {
  return basename(file).replace(/\.gz$/, '').replace(/\.(csv|txt|tsv)$/, '');
}

/** `exp` with the files as its variants (its own runs left out), its hash and resolved config saying so. */
export function withScoredFiles(exp: Experiment, adapters: readonly AlgorithmAdapter[], s: ScoredFiles): Experiment {
  const reader = adapters.find((a) => a.paramsForFile !== undefined);
  if (reader?.paramsForFile === undefined) throw new UserError('no detector reads files of pairs or clusters');
  if (s.files.length === 0) throw new UserError('bench score: give at least one file of pairs or clusters');
  if (s.names !== undefined && s.names.length !== s.files.length) {
    throw new UserError(`bench score: ${s.names.length} --name for ${s.files.length} files: give one name a file, in order`);
  }
  const seen = new Set<string>(['ground-truth']);
  const variants: Variant[] = s.files.map((file, i) => {
    const path = resolve(file);
    if (!existsSync(path)) throw new UserError(`${file}: no such file`);
    const name = s.names?.[i] ?? defaultVariantName(file);
    if (!VARIANT_NAME.test(name)) throw new UserError(`${file}: ${quote(name)} is not a variant name (letters, digits and . _ = , -): give one with --name`);
    if (seen.has(name)) throw new UserError(`${file}: the variant name ${quote(name)} is taken: give another with --name`);
    seen.add(name);
    const parsed = reader.params.safeParse(reader.paramsForFile?.(path, s.declared));
    if (!parsed.success) throw new UserError(`${file}: ${parsed.error.issues.map((x) => x.message).join('; ')}`);
    return { name, algorithm: reader.name, params: parsed.data, swept: {}, groundTruth: false };
  });
  const resolved = {
    ...(exp.resolved as Record<string, unknown>),
    runs: variants.map((v) => ({ name: v.name, algorithm: v.algorithm, params: v.params })),
  };
  return { ...exp, variants, resolved, hash: configHash(resolved) };
}
