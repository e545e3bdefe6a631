/**
 * The modules that worker tasks name by URL, as the built CLI bundles them: source path (from
 * the package root) → its import. Empty here, where the sources run as they are; scripts/build.mjs
 * replaces this file's contents in the build with every module named by
 * `new URL('<path>.ts', import.meta.url)` in harness/ and algorithms/.
 */
export const modules: Readonly<Record<string, () => Promise<Record<string, unknown>>>> = {};
