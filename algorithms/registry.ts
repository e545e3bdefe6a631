/**
 * Every detector the harness can run, by name, with its parameter schema: the adapters of the
 * folders `detectors.ts` lists, each folder's module loaded when first asked for. A run loads
 * the detectors its config names (a detector's module brings its schemas and code: loading all
 * seven took a sixth of `bench run`'s start-up).
 */
import type { AlgorithmAdapter } from '../contract/index.ts';
import { DETECTORS } from './detectors.ts';

const loading = new Map<string, Promise<AlgorithmAdapter>>();

function load(folder: string): Promise<AlgorithmAdapter> {
  let adapter = loading.get(folder);
  if (adapter === undefined) {
    adapter = (import(`./${folder}/index.ts`) as Promise<{ adapter: AlgorithmAdapter }>).then((m) => m.adapter);
    loading.set(folder, adapter);
  }
  return adapter;
}

/** The adapters of these detectors (every one by default), in the order of `DETECTORS`; a name that is none is left out. */
export function loadAdapters(names: readonly string[] = DETECTORS): Promise<AlgorithmAdapter[]> {
  return Promise.all(DETECTORS.filter((d) => names.includes(d)).map(load));
}

export async function findAdapter(name: string): Promise<AlgorithmAdapter | undefined> {
  return DETECTORS.includes(name) ? load(name) : undefined;
}
