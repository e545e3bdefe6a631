import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../harness/errors.ts';
import { filterVariants } from '../../../../harness/experiment/config/only.ts';
import { loadExperiment } from '../../../../harness/experiment/load.ts';

const fixture = (name: string) => join(fileURLToPath(new URL('../../../fixtures/configs/', import.meta.url)), name);

describe('filterVariants', () => {
  it('keeps exact names and glob matches, in experiment order', async () => {
    const exp = await loadExperiment(fixture('sweep-mod.yaml'), { env: {} });
    expect(filterVariants(exp, ['broder/mod=512', 'broder/mod=?']).map((v) => v.name)).toEqual([
      'broder/mod=2', 'broder/mod=4', 'broder/mod=8', 'broder/mod=512',
    ]);
    expect(filterVariants(exp, ['broder/mod=*'])).toEqual(exp.variants);
  });

  it('accepts the ground truth, which always runs, and returns only the other variants', async () => {
    const exp = await loadExperiment(fixture('sweep-mod.yaml'), { env: {} });
    expect(filterVariants(exp, ['ground-truth'])).toEqual([]);
  });

  it('lists the variant names when a pattern matches nothing', async () => {
    const exp = await loadExperiment(fixture('valid-full.yaml'), { env: {} });
    const call = () => filterVariants(exp, ['sct/*', 'mod=*']);
    expect(call).toThrow(UserError);
    expect(call).toThrow(
      `${fixture('valid-full.yaml')}: --only 'mod=*' matches no variant; the variants are: ground-truth, sct/sct=3, sct/sct=2, broder`,
    );
  });
});
