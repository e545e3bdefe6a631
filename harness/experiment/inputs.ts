/**
 * What a run read, fingerprinted, so that a run is tied to its inputs: `already complete` holds
 * only when the config, the package version and every input file are what the complete run
 * read. The files are fingerprinted as corpus/fingerprints.ts does; which files they are is the
 * experiment's.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fingerprintCorpus, fingerprintPath, type FileSetFingerprint } from '../corpus/fingerprints.ts';
import { findCorpusReader, readerLocation, readerOptionsOf } from '../corpus/registry.ts';
import type { DetectorCatalog } from '../detectors.ts';
import { grouped } from '../format.ts';
import type { InputsFingerprint } from '../results/types.ts';
import type { Experiment } from './types.ts';

const PACKAGE = new URL('../../package.json', import.meta.url);

export function packageVersion(): string {
  return (JSON.parse(readFileSync(PACKAGE, 'utf8')) as { version: string }).version;
}

/**
 * The files and folders an experiment reads: the corpus (as its reader resolves it), qrels, run
 * files, the span oracle, and the files the variants' parameters name (an adapter's `fileParams`,
 * such as simhash's document frequencies; absolute once the config is loaded).
 */
export function inputPaths(exp: Experiment, detectors?: DetectorCatalog): string[] {
  const paths: string[] = [];
  const reader = findCorpusReader(exp.corpus.format);
  const corpus = exp.corpus.path ?? '';
  const location = readerLocation(reader, corpus);
  if (location !== '') paths.push(location);
  const subset = exp.corpus.subset;
  if (subset) paths.push(...('qrels' in subset ? [subset.qrels] : subset.runs));
  for (const s of [exp.studies?.topic_collections, exp.studies?.run_topics]) if (s) paths.push(...s.runs);
  if (exp.evaluate.oracle !== undefined) paths.push(exp.evaluate.oracle);
  if (exp.evaluate.planted !== undefined) paths.push(exp.evaluate.planted);
  if (exp.evaluate.judgments !== undefined) paths.push(exp.evaluate.judgments.path);
  for (const v of detectors ? [exp.groundTruth, ...exp.variants] : []) {
    for (const at of detectors?.adapters.find((a) => a.name === v.algorithm)?.fileParams ?? []) {
      const value = at.reduce<unknown>((x, seg) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[seg] : undefined), v.params);
      if (typeof value === 'string' && value !== '') paths.push(value);
    }
  }
  return [...new Set(paths)];
}

export async function fingerprintInputs(exp: Experiment, method: 'stat' | 'content' = 'stat', detectors?: DetectorCatalog): Promise<InputsFingerprint> {
  const reader = findCorpusReader(exp.corpus.format);
  const corpus = exp.corpus.path ?? '';
  const location = readerLocation(reader, corpus);
  const files = await Promise.all(
    inputPaths(exp, detectors).map((p) => (p === location && location !== '' ? fingerprintCorpus(reader, corpus, readerOptionsOf(exp.corpus), method) : fingerprintPath(p, method))),
  );
  const base = { method, package_version: packageVersion(), config_hash: exp.hash, files };
  return { ...base, digest: createHash('sha256').update(JSON.stringify(base)).digest('hex') };
}

const mb = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MB`;
const describe = (f: FileSetFingerprint): string => `${grouped(f.files)} files, ${mb(f.bytes)}, newest ${f.newest ?? 'none'}`;

/** What differs between the inputs a run read and these, one clause each; empty when they are the same. */
export function inputChanges(before: InputsFingerprint, now: InputsFingerprint): string[] {
  if (before.digest === now.digest) return [];
  const out: string[] = [];
  if (before.package_version !== now.package_version) out.push(`ndd-bench ${before.package_version} → ${now.package_version}`);
  if (before.config_hash !== now.config_hash) out.push('the config changed');
  if (before.method !== now.method) out.push(`inputs fingerprinted by ${before.method}, now by ${now.method}`);
  for (const f of now.files) {
    const old = before.files.find((b) => b.path === f.path);
    if (!old) out.push(`${f.path} is new`);
    else if (old.digest !== f.digest) out.push(`${f.path} changed (${describe(old)} → ${describe(f)})`);
  }
  for (const b of before.files) if (!now.files.some((f) => f.path === b.path)) out.push(`${b.path} is no longer read`);
  return out.length > 0 ? out : ['the inputs differ'];
}
