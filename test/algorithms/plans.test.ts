import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DETECTORS } from '../../algorithms/detectors.ts';
import { findPlan } from '../../algorithms/plans.ts';
import { loadAdapters } from '../../algorithms/registry.ts';

const adapters = await loadAdapters();

const ALGORITHMS = new URL('../../algorithms/', import.meta.url);

describe('the detector list', () => {
  it('names every detector folder (every folder of algorithms/ with an index.ts and a plan.ts)', () => {
    const folders = readdirSync(ALGORITHMS, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .filter((f) => {
        const files = readdirSync(new URL(`${f}/`, ALGORITHMS));
        return files.includes('index.ts') && files.includes('plan.ts');
      });
    expect([...DETECTORS].sort()).toEqual(folders.sort());
  });

  it('gives each adapter the name of its folder', () => {
    expect(adapters.map((a) => a.name)).toEqual([...DETECTORS]);
  });

  it('gives the job script the very plan functions of the adapters', async () => {
    for (const a of adapters) expect(await findPlan(a.name)).toBe(a.plan);
    expect(await findPlan('no-such-detector')).toBeUndefined();
  });
});
