/** The hand-written results folders in test/fixtures/results: two runs of the tiny-sct experiment. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from '../../../harness/results/types.ts';

export const RESULTS_ROOT = fileURLToPath(new URL('../../fixtures/results/', import.meta.url));
export const RUN_A = fileURLToPath(new URL('../../fixtures/results/tiny-sct/20251122T101500Z-3f9a2c/', import.meta.url));
export const RUN_B = fileURLToPath(new URL('../../fixtures/results/tiny-sct/20251122T103000Z-7b21d0/', import.meta.url));

export function loadRun(dir: string): RunRecord {
  return JSON.parse(readFileSync(`${dir}/run.json`, 'utf8')) as RunRecord;
}

export function loadTables(dir: string): { metricsCsv: string; distributionCsv: string; extra: Record<string, string> } {
  return { metricsCsv: readFileSync(`${dir}/metrics.csv`, 'utf8'), distributionCsv: readFileSync(`${dir}/distribution.csv`, 'utf8'), extra: {} };
}

export type DeepMutable<T> = T extends readonly (infer U)[] ? DeepMutable<U>[] : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;

/** A deep copy with `edit` applied to the (mutable) copy. */
export function editedRun(run: RunRecord, edit: (r: DeepMutable<RunRecord>) => void): RunRecord {
  const copy = structuredClone(run) as DeepMutable<RunRecord>;
  edit(copy);
  return copy as RunRecord;
}

export const HOSTILE = '<img src=x onerror=alert(1)>';
