/**
 * Checks of sampling parameters that zod's types cannot say, as one-line config errors naming
 * the field. Kept apart from `sampling.ts`, which the job script bundles without zod.
 */
import type { z } from 'zod';

/** Ye et al. section 6 chooses among the ratios 1/2, 1/4, 1/8 and 1/16. */
export const DEFAULT_TARGET_MODULI: readonly number[] = [2, 4, 8, 16];

/** Figure 4's precision requirements, from 0.5 to 0.99. */
export const DEFAULT_TARGETS: readonly number[] = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99];

/**
 * The moduli, distinct and ascending, must each divide the next: then a fingerprint kept at a
 * coarser modulus is kept at every finer one, and two documents sampled at different moduli
 * share exactly the coarser sample (sampling.ts).
 */
export function checkChain(moduli: readonly number[], ctx: z.RefinementCtx, path: readonly (string | number)[], where = ''): void {
  const chain = [...new Set(moduli)].sort((x, y) => x - y);
  for (let i = 1; i < chain.length; i++) {
    const small = chain[i - 1] as number;
    const large = chain[i] as number;
    if (large % small !== 0) {
      ctx.addIssue({
        code: 'custom',
        path: [...path],
        message: `moduli${where} must divide one another (as 2, 4, 8, 16 do): ${small} does not divide ${large}, so documents sampled with them share no common sample`,
      });
      return;
    }
  }
}

interface AdaptiveGroups {
  readonly groups: readonly { readonly max_size: number | null; readonly m: number }[];
}

/** Groups in increasing max_size, only the last unbounded, moduli a divisibility chain. */
export function checkAdaptiveGroups(s: AdaptiveGroups, ctx: z.RefinementCtx): void {
  let previous = -1;
  s.groups.forEach((g, i) => {
    if (g.max_size === null) {
      if (i !== s.groups.length - 1) ctx.addIssue({ code: 'custom', path: ['groups', i, 'max_size'], message: 'only the last group may be unbounded (max_size null)' });
      return;
    }
    if (g.max_size <= previous) {
      ctx.addIssue({ code: 'custom', path: ['groups', i, 'max_size'], message: `groups must be in increasing max_size: ${g.max_size} follows ${previous}` });
    }
    previous = g.max_size;
  });
  checkChain(
    s.groups.map((g) => g.m),
    ctx,
    ['groups'],
    ' of the groups',
  );
}
