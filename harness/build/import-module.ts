/**
 * Loads a module by its URL, as tasks name their code (`new URL('./join.ts', import.meta.url)`):
 * the TypeScript source where the sources run (tsx, vitest), the bundled module in the built CLI
 * (module-table.ts). A module the build lacks (added since) is loaded from its source through tsx.
 */
import { modules } from './module-table.ts';

const ROOT = new URL('../../', import.meta.url).href;
let tsx: Promise<void> | undefined;

export async function importModule(url: string): Promise<Record<string, unknown>> {
  const bundled = url.startsWith(ROOT) ? modules[url.slice(ROOT.length)] : undefined;
  if (bundled) return bundled();
  if (typeof __NDD_BUILT__ !== 'undefined' && __NDD_BUILT__ && url.endsWith('.ts')) {
    tsx ??= import('tsx/esm/api').then(({ register }) => void register());
    await tsx;
  }
  return (await import(url)) as Record<string, unknown>;
}
