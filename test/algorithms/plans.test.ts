import { describe, expect, it } from 'vitest';
import { plans } from '../../algorithms/plans.ts';
import { adapters } from '../../algorithms/registry.ts';

describe('the plan table the job script bundles', () => {
  it('has exactly the registry adapters, with the same plan functions', () => {
    expect(Object.keys(plans).sort()).toEqual(adapters.map((a) => a.name).sort());
    for (const a of adapters) expect(plans[a.name]).toBe(a.plan);
  });
});
