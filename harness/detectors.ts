/**
 * The detectors a run can use, as the harness sees them: the adapters (parameters, plan,
 * measures), where a worker thread rebuilds a plan (`planModule`, exporting
 * `findPlan(name): Promise<PlanFunction | undefined>`), and the entry point the Hadoop job script
 * is bundled from (built on `runJobScript`). The built-in catalog is the folders of
 * `algorithms/`; tests pass a catalog of their own to run a detector written in the test folder
 * through the whole harness, which never asks for a detector by name.
 */
import { fileURLToPath } from 'node:url';
import { adapters } from '../algorithms/registry.ts';
import type { AlgorithmAdapter } from '../contract/index.ts';

export interface DetectorCatalog {
  readonly adapters: readonly AlgorithmAdapter[];
  /** URL of a module exporting `findPlan(name)` */
  readonly planModule: string;
  /** path of a job script entry point (see harness/mapreduce/streaming/task-main.ts) */
  readonly jobScriptEntry: string;
}

export const BUILTIN_DETECTORS: DetectorCatalog = {
  adapters,
  planModule: new URL('../algorithms/plans.ts', import.meta.url).href,
  jobScriptEntry: fileURLToPath(new URL('./mapreduce/streaming/task-main.ts', import.meta.url)),
};

export function findDetector(catalog: DetectorCatalog, name: string): AlgorithmAdapter | undefined {
  return catalog.adapters.find((a) => a.name === name);
}
