/** A detector catalog with the test detectors beside the built-in ones. */
import { fileURLToPath } from 'node:url';
import { builtinDetectors, type DetectorCatalog } from '../../../harness/detectors.ts';
import { exactDuplicates } from './exact-duplicates.ts';
import { sharedLines } from './shared-lines.ts';

export const TEST_DETECTORS: DetectorCatalog = {
  adapters: [...(await builtinDetectors()).adapters, exactDuplicates, sharedLines],
  planModule: new URL('./plans.ts', import.meta.url).href,
  jobScriptEntry: fileURLToPath(new URL('./job-main.ts', import.meta.url)),
};
