/**
 * Run ids name folders: `results/<experiment>/<run-id>/`. A run id is a name, never a path, so
 * that `--run-id ../../x` cannot reach outside the results folder.
 */
import { quote, UserError } from '../errors.ts';

const RUN_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/** Throws a one-line UserError unless `id` is letters, digits, `.`, `_`, `-`, not empty, not starting with `.`, at most 100 characters. */
export function checkRunId(id: string): string {
  if (!RUN_ID.test(id)) {
    throw new UserError(`--run-id ${quote(id)}: a run id is 1 to 100 letters, digits, '.', '_' or '-', not starting with '.'`);
  }
  return id;
}
