/**
 * Every algorithm the harness can run, by name. Adding an algorithm is one folder under
 * `algorithms/` and one line here; no harness file changes.
 */
import type { AlgorithmAdapter } from './types.ts';
import { broder } from './broder/index.ts';

export const adapters: readonly AlgorithmAdapter[] = [broder];

export function findAdapter(name: string): AlgorithmAdapter | undefined {
  return adapters.find((a) => a.name === name);
}
