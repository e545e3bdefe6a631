/**
 * The detectors, by folder name. Adding one is its folder under `algorithms/` (an `index.ts`
 * exporting `adapter`, a `plan.ts` exporting `plan`, the adapter's name equal to the folder's)
 * and one line here; no harness file changes.
 */
export const DETECTORS: readonly string[] = [
  'broder',
  'external',
  'imatch',
  'minhash',
  'pdc-mr',
  'ppjoin',
  'simhash',
  'spotsigs',
];
