/** `${VAR}`s expanded in a parsed config, each problem placed at the value that has it. */
import { isMap, isScalar, isSeq } from 'yaml';
import { expandVariables, type Env } from '../env.ts';
import { formatPath, type IssueList } from '../issues.ts';
import type { Path } from '../zod-walk.ts';

export interface VariableOptions {
  readonly env: Env;
  readonly issues: IssueList;
  /** `placeholder` (a dry run): a missing variable becomes `<VAR>` rather than a problem */
  readonly missing: 'problem' | 'placeholder';
}

/**
 * Expands `${VAR}`s in every string value (keys are left alone), in place. Returns the
 * fields that could not be expanded, whose files are then not looked for.
 */
export function expandConfigVariables(root: unknown, options: VariableOptions): Set<string> {
  const failed = new Set<string>();
  const walk = (node: unknown, path: Path): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key: unknown = isScalar(pair.key) ? pair.key.value : undefined;
        if (typeof key === 'string' || typeof key === 'number') walk(pair.value, [...path, String(key)]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i]));
    } else if (isScalar(node) && typeof node.value === 'string') {
      const { value, problems, placeholders } = expandVariables(node.value, options.env, options.missing);
      // A placeholder names a collection this machine does not have: its files are not looked for.
      if (problems.length > 0 || placeholders.length > 0) failed.add(formatPath(path));
      node.value = value;
      for (const p of problems) options.issues.add(node.range?.[0] ?? 0, path, p);
    }
  };
  walk(root, []);
  return failed;
}
