/**
 * What the loader (files.ts, load.ts) needs to know about the `studies` section: which values
 * are files (checked to exist like the corpus files, with the same positioned errors) and how
 * they become absolute. A runs entry may be a folder of run files, so it need not be a file.
 */
import { resolve } from 'node:path';
import type { StudiesConfig } from '../types.ts';
import type { Path } from '../zod-walk.ts';
import { isRecord } from './scope.ts';

export interface StudyFileRef {
  readonly path: Path;
  readonly value: string;
  readonly mustBeFile: false;
}

/** The run paths of the raw (unvalidated) config, with their place in it. */
export function studyFileRefs(raw: unknown): StudyFileRef[] {
  const studies = isRecord(raw) ? raw.studies : undefined;
  if (!isRecord(studies)) return [];
  const refs: StudyFileRef[] = [];
  for (const study of ['topic_collections', 'run_topics'] as const) {
    const section = studies[study];
    if (!isRecord(section) || !Array.isArray(section.runs)) continue;
    section.runs.forEach((r, i) => {
      if (typeof r === 'string') refs.push({ path: ['studies', study, 'runs', i], value: r, mustBeFile: false });
    });
  }
  return refs;
}

/** The section with every run path resolved against the config file's folder. */
export function resolveStudyPaths(studies: StudiesConfig, dir: string): StudiesConfig {
  const abs = (runs: readonly string[]) => runs.map((r) => resolve(dir, r));
  return {
    ...(studies.topic_collections === undefined
      ? {}
      : { topic_collections: { ...studies.topic_collections, runs: abs(studies.topic_collections.runs) } }),
    ...(studies.run_topics === undefined ? {} : { run_topics: { ...studies.run_topics, runs: abs(studies.run_topics.runs) } }),
  };
}
