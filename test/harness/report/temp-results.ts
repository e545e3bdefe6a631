/** A throwaway copy of test/fixtures/results, so tests can write reports into run folders. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESULTS_ROOT } from './fixture-runs.ts';

export async function copyFixtureResults(): Promise<{ root: string; runA: string; runB: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'ndd-report-'));
  await cp(RESULTS_ROOT, root, { recursive: true });
  return {
    root,
    runA: join(root, 'tiny-sct', '20251122T101500Z-3f9a2c'),
    runB: join(root, 'tiny-sct', '20251122T103000Z-7b21d0'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
