/**
 * Every detector the harness can run, by name, with its parameter schema: the adapters of the
 * folders `detectors.ts` lists.
 */
import type { AlgorithmAdapter } from '../contract/index.ts';
import { DETECTORS } from './detectors.ts';

const modules = await Promise.all(DETECTORS.map((d) => import(`./${d}/index.ts`) as Promise<{ adapter: AlgorithmAdapter }>));

export const adapters: readonly AlgorithmAdapter[] = modules.map((m) => m.adapter);

export function findAdapter(name: string): AlgorithmAdapter | undefined {
  return adapters.find((a) => a.name === name);
}
