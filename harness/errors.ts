/**
 * The error taxonomy. Every failure a user can cause or fix is a `UserError` (exit 2) whose
 * message is one line naming the file and place. Anything else is a bug (exit 1) and keeps
 * its stack. The one place that turns these into exit codes is `harness/cli.ts`.
 */
import { InputFileError } from '../contract/errors.ts';

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

/** A run that was interrupted (SIGINT/SIGTERM); its message says what was kept. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  readonly exitCode = 130;
}

/**
 * What a failed run kept and how to go on ("2 of 5 variants are saved in …; to finish the run:
 * …"), attached to its error by the runner and printed after it (cli.ts), last, where a long
 * stack does not push it out of sight.
 */
const keptNotes = new WeakMap<object, string>();

export function noteKept(e: unknown, note: string): void {
  if (e !== null && typeof e === 'object') keptNotes.set(e, note);
}

export function keptNoteOf(e: unknown): string | undefined {
  return e !== null && typeof e === 'object' ? keptNotes.get(e) : undefined;
}

/** A user error, or a detector's `InputFileError` (contract/errors.ts), which is the harness' `DataError` by another name. */
export function isUserError(e: unknown): e is UserError | InputFileError {
  return e instanceof UserError || e instanceof InputFileError;
}

/** System errors that the machine or the user's paths cause, never the harness: exit 2, not a stack. */
const ENVIRONMENT_ERRORS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a directory',
};

/**
 * A file system error that is the environment's doing (a folder the user may not write, a
 * full disk), as the one-line `UserError` it is; anything else stays what it is.
 */
export function asEnvironmentError(e: unknown): UserError | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  if (!(err instanceof Error) || typeof err.code !== 'string' || typeof err.path !== 'string') return undefined;
  const why = ENVIRONMENT_ERRORS[err.code];
  if (why === undefined) return undefined;
  const what = typeof err.syscall === 'string' ? `cannot ${err.syscall}` : 'cannot use it';
  return new UserError(`${err.path}: ${what}: ${why}`, { cause: e });
}

/**
 * Quoting raw input in messages. Every message that shows something a user or a file supplied
 * (a config value, a key, a record's id, a stray line) shows it through `quote`: at most `max`
 * characters of it (80 by default, then `…`), with control characters escaped, so that a message
 * stays one readable line and cannot drive the terminal (`\e[2J`) or print kilobytes of a binary
 * file. `cli.ts` passes every message it prints through `escapeControls` as a last guard.
 */
export const QUOTE_MAX = 80;

/** C0 and C1 controls, DEL, and the invisible characters that reorder or break lines on a terminal. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };

/** `s` with every control character written as an escape (`\n`, `\e`, `\x07`, `\u202e`); nothing else changes. */
export function escapeControls(s: string): string {
  return s.replace(CONTROL, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** At most `max` characters (code points) of `raw`, control characters escaped, `…` when cut; no quotes around. */
export function clip(raw: string, max = QUOTE_MAX): string {
  // Cheap for huge inputs: never looks beyond the first 2 × max UTF-16 units.
  const head = raw.length > 2 * max ? raw.slice(0, 2 * max) : raw;
  const points = Array.from(head);
  const cut = points.length > max || head.length < raw.length;
  return escapeControls(points.slice(0, max).join('')) + (cut ? '…' : '');
}

/** `raw` quoted for a message: `'abc'` (at most `max` characters of it, control characters escaped). */
export function quote(raw: string, max = QUOTE_MAX): string {
  return `'${clip(raw, max)}'`;
}

/**
 * Where `JSON.parse(text)` failed and why, for a one-line message: `byte N: <reason>`. V8 gives a
 * position for most errors but not for an unexpected token; then the shortest prefix of `text`
 * that fails for another reason than its end is searched for (only on this error path).
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Does the first n characters' parse fail before their end (not merely because they stop)?
  const failsBeforeEnd = (n: number): boolean => {
    try {
      JSON.parse(text.slice(0, n));
      return false;
    } catch (e) {
      const m = (e as Error).message;
      const pos = /at position (\d+)/.exec(m);
      if (pos) return Number(pos[1]) < n;
      return !/Unexpected end of JSON input/.test(m);
    }
  };
  let at: number;
  const given = /at position (\d+)/.exec(message);
  if (given) at = Number(given[1]);
  else if (/Unexpected end of JSON input/.test(message)) at = text.length;
  else {
    let [lo, hi] = [0, text.length]; // failsBeforeEnd(hi) holds; find the least such n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (failsBeforeEnd(mid)) hi = mid;
      else lo = mid + 1;
    }
    at = Math.max(0, lo - 1);
  }
  const reason = message
    .replace(/ at position \d+.*$/s, '')
    .replace(/ in JSON$/, '')
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
  return `byte ${Buffer.byteLength(text.slice(0, at), 'utf8')}: ${clip(reason, 120)}`;
}

/** An exit-2 message shows at most this many lines (a config with hundreds of problems) … */
const MAX_MESSAGE_LINES = 40;
/** … each at most this long: its quoted input is cut at 80 characters where it is quoted, this is the last guard. */
const MAX_LINE = 400;

/**
 * What is printed of a message: every control character escaped (a message must not clear the
 * screen or ring the bell, whatever input it quotes) and, for user errors, a bounded size.
 */
export function printableLines(message: string, bounded: boolean): string[] {
  let lines = message.split('\n').map((l) => escapeControls(l));
  if (!bounded) return lines;
  lines = lines.map((l) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l));
  if (lines.length > MAX_MESSAGE_LINES) {
    lines = [...lines.slice(0, MAX_MESSAGE_LINES - 1), `… and ${lines.length - MAX_MESSAGE_LINES + 1} more`];
  }
  return lines;
}
