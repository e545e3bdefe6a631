/** `bench run --only`: the variants a run keeps, by name or glob. */
import { quote, UserError } from '../../errors.ts';
import type { Experiment, Variant } from '../types.ts';

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * The variants `bench run --only` keeps: exact names or globs (`*`, `?`). Naming the ground
 * truth is allowed (it always runs); a pattern that matches nothing is an error.
 */
export function filterVariants(exp: Experiment, only: readonly string[]): Variant[] {
  const patterns = only.map((p) => ({ p, re: globToRegExp(p) }));
  const all = [exp.groundTruth, ...exp.variants];
  const unmatched = patterns.filter(({ re }) => !all.some((v) => re.test(v.name)));
  if (unmatched.length > 0) {
    const which = unmatched.map(({ p }) => quote(p)).join(', ');
    const names = all.map((v) => v.name).join(', ');
    throw new UserError(`${exp.file}: --only ${which} matches no variant; the variants are: ${names}`);
  }
  return exp.variants.filter((v) => patterns.some(({ re }) => re.test(v.name)));
}
