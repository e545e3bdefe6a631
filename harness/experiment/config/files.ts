/**
 * The files a config names (the corpus, qrels, run files, the span oracle, the studies' runs):
 * found in the raw config, checked to exist with a positioned problem each, and made absolute
 * against the config file's folder.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CorpusConfig } from '../types.ts';
import type { Path } from '../zod-walk.ts';
import { isRecord, type ConfigScope } from './scope.ts';
import { studyFileRefs } from './studies.ts';

export interface FileRef {
  readonly path: Path;
  readonly value: string;
  readonly mustBeFile: boolean;
}

/** The files the raw (unvalidated) config names, with their place in it. */
export function fileRefs(raw: unknown): FileRef[] {
  const evaluate = isRecord(raw) ? raw.evaluate : undefined;
  const oracle: FileRef[] = isRecord(evaluate)
    ? (['oracle', 'planted'] as const).flatMap((key) => (typeof evaluate[key] === 'string' ? [{ path: ['evaluate', key], value: evaluate[key], mustBeFile: true }] : []))
    : [];
  const judgments = isRecord(evaluate) && isRecord(evaluate.judgments) ? evaluate.judgments.path : undefined;
  if (typeof judgments === 'string') oracle.push({ path: ['evaluate', 'judgments', 'path'], value: judgments, mustBeFile: true });
  const corpus = isRecord(raw) ? raw.corpus : undefined;
  if (!isRecord(corpus)) return oracle;
  const refs: FileRef[] = [...oracle];
  if (typeof corpus.path === 'string') refs.push({ path: ['corpus', 'path'], value: corpus.path, mustBeFile: false });
  const subset = corpus.subset;
  if (isRecord(subset)) {
    if (typeof subset.qrels === 'string') {
      refs.push({ path: ['corpus', 'subset', 'qrels'], value: subset.qrels, mustBeFile: true });
    }
    if (Array.isArray(subset.runs)) {
      // A runs entry may be a folder of run files (the Web09 runs come as one).
      subset.runs.forEach((r, i) => {
        if (typeof r === 'string') refs.push({ path: ['corpus', 'subset', 'runs', i], value: r, mustBeFile: false });
      });
    }
  }
  return [...refs, ...studyFileRefs(raw)];
}

export async function checkFiles(refs: readonly FileRef[], { dir, locate, issues }: Pick<ConfigScope, 'dir' | 'locate' | 'issues'>): Promise<void> {
  const problems = await Promise.all(
    refs.map(async (ref) => {
      const abs = resolve(dir, ref.value);
      try {
        const s = await stat(abs);
        return ref.mustBeFile && s.isDirectory() ? `expected a file, found a directory: ${abs}` : undefined;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ENOTDIR' ? `no such file or directory: ${abs}` : `cannot read ${abs}: ${code}`;
      }
    }),
  );
  refs.forEach((ref, i) => {
    const problem = problems[i];
    if (problem !== undefined) issues.add(locate.value(ref.path), ref.path, problem);
  });
}

/** The corpus section with its path and subset files resolved against the config file's folder. */
export function absoluteCorpusPaths(corpus: CorpusConfig, dir: string): CorpusConfig {
  const subset =
    corpus.subset === undefined
      ? undefined
      : 'qrels' in corpus.subset
        ? { ...corpus.subset, qrels: resolve(dir, corpus.subset.qrels) }
        : { ...corpus.subset, runs: corpus.subset.runs.map((r) => resolve(dir, r)) };
  return {
    ...corpus,
    ...(corpus.path === undefined ? {} : { path: resolve(dir, corpus.path) }),
    ...(subset === undefined ? {} : { subset }),
  } as CorpusConfig;
}
