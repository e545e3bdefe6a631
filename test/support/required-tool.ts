/**
 * Tests that need an outside tool (moto_server, Chromium) skip without it on a developer's
 * machine, with a warning; under CI (CI=true) a missing tool fails them instead, so that CI
 * cannot pass by skipping them.
 */
export function skipsWithout(found: boolean, what: string, why: string): boolean {
  if (found) return false;
  if (process.env.CI === 'true') return false;
  console.warn(`SKIPPED ${what}: ${why}`);
  return true;
}

/** Throws (in a beforeAll) when the tool is missing: reached only under CI, where the tests must run. */
export function requireTool(found: boolean, what: string, why: string): void {
  if (!found) throw new Error(`${what} cannot run under CI: ${why}`);
}
