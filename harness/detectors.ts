/**
 * The detectors a run can use, as the harness sees them: the adapters (parameters, plan,
 * measures), where a worker thread rebuilds a plan (`planModule`, exporting
 * `findPlan(name): Promise<PlanFunction | undefined>`), and the entry point the Hadoop job script
 * is bundled from (built on `runJobScript`). The built-in catalog is the folders of
 * `algorithms/`, loaded for the algorithms a config names; tests pass a catalog of their own to
 * run a detector written in the test folder through the whole harness, which never asks for a
 * detector by name.
 */
import { DETECTORS } from '../algorithms/detectors.ts';
import { loadAdapters } from '../algorithms/registry.ts';
import type { AlgorithmAdapter } from '../contract/index.ts';

export interface DetectorCatalog {
  readonly adapters: readonly AlgorithmAdapter[];
  /** every detector's name, when the catalog holds only some of their adapters (the built-in one, loaded for a config) */
  readonly known?: readonly string[];
  /** URL of a module exporting `findPlan(name)` */
  readonly planModule: string;
  /** path of a job script entry point (see harness/mapreduce/streaming/task-main.ts); absent: that built-in one */
  readonly jobScriptEntry?: string;
}

export const BUILTIN_PLAN_MODULE = new URL('../algorithms/plans.ts', import.meta.url).href;

/** The built-in detectors with the adapters of these names loaded (every one by default). */
export async function builtinDetectors(names?: readonly string[]): Promise<DetectorCatalog> {
  return { adapters: await loadAdapters(names), known: DETECTORS, planModule: BUILTIN_PLAN_MODULE };
}

/** The detectors' names, for a message naming them all. */
export function knownDetectors(catalog: DetectorCatalog): readonly string[] {
  return catalog.known ?? catalog.adapters.map((a) => a.name);
}

export function findDetector(catalog: DetectorCatalog, name: string): AlgorithmAdapter | undefined {
  return catalog.adapters.find((a) => a.name === name);
}
