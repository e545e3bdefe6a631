/**
 * The error taxonomy. Every failure a user can cause or fix is a `UserError` (exit 2) whose
 * message is one line naming the file and place. Anything else is a bug (exit 1) and keeps
 * its stack. The one place that turns these into exit codes is `harness/cli.ts`.
 */

/** A problem with the user's input: config, data files, environment, cloud settings. */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  readonly exitCode = 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A config file that does not parse or does not validate; `issues` are `file:line:col: field: problem`. */
export class ConfigError extends UserError {
  override readonly name = 'ConfigError';
  constructor(readonly issues: readonly string[]) {
    super(issues.join('\n'));
  }
}

/** A corpus, qrels or run file that cannot be read in a way that would give correct results. */
export class DataError extends UserError {
  override readonly name = 'DataError';
}

/** A run that was interrupted (SIGINT/SIGTERM); nothing was written. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  readonly exitCode = 130;
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/**
 * User input quoted in a message: at most 80 characters of it, control characters escaped
 * (JSON's escapes), so that a message stays one line and never sends terminal escapes.
 */
export function quoteInput(s: string): string {
  const shown = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  return JSON.stringify(shown).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
