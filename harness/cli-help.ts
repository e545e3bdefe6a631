/**
 * What `bench --help` prints, from the command table alone: answering it without loading yargs
 * (most of the start-up of a command) keeps it well under 0.2 s. The texts here are also the
 * ones cli.ts gives yargs, so the two cannot drift apart.
 */
import { COMMANDS } from './commands/index.ts';

export const USAGE = '$0 <command> [options]\n\nBenchmark and evaluation harness for near-duplicate document detection.';

export const EXAMPLES: readonly (readonly [string, string])[] = [
  ['$0 run configs/quickstart.yaml', 'run the bundled-corpus experiment'],
  ['$0 run configs/quickstart.yaml --only "broder/sct=*"', 'the ground truth and the SCT sweep only'],
  ['$0 validate configs/gov2-sct.yaml', 'check a config without running it'],
];

export const EPILOG = 'Exit codes: 0 ok, 1 internal error or regression, 2 bad input, 130 interrupted.';

/** The width help is laid out for: the terminal's, at most 110 columns; 100 when not a terminal. */
export function helpWidth(columns: number | undefined): number {
  return Math.min(110, columns ?? 100);
}

/** Whether the arguments ask for the top-level help and nothing else. */
export function asksTopLevelHelp(args: readonly string[]): boolean {
  return args.length === 1 && args[0] === '--help';
}

/** The top-level help, laid out as yargs lays out its own: two columns, the right one wrapped. */
export function topLevelHelp(width: number): string {
  const name = (s: string): string => s.replace(/\$0/g, 'bench');
  const commands = COMMANDS.map((c) => [`bench ${c.command}`, c.describe] as const);
  const options = [
    ['--help', 'Show help', '[boolean]'],
    ['--version', 'Show version number', '[boolean]'],
  ] as const;
  const lines = [name(USAGE), '', 'Commands:', ...columns(commands, width), '', 'Options:'];
  const optionWidth = Math.max(...options.map(([o]) => o.length)) + 4;
  for (const [o, d, t] of options) {
    const left = `  ${o}`.padEnd(optionWidth);
    lines.push(`${left}${d}${t.padStart(Math.max(1, width - left.length - d.length))}`);
  }
  lines.push('', 'Examples:', ...columns(EXAMPLES.map(([c, d]) => [name(c), d] as const), width), '', EPILOG, '');
  return lines.join('\n');
}

/** Rows of a left column (indented 2, padded 2) and a right one wrapped at word boundaries to `width`. */
function columns(rows: readonly (readonly [string, string])[], width: number): string[] {
  // yargs: the widest left text, at most half the width, plus 4
  const left = Math.min(Math.max(...rows.map(([l]) => l.length)), Math.floor(width / 2)) + 4;
  const out: string[] = [];
  for (const [l, r] of rows) {
    const head = `  ${l}`;
    const right = wrap(r, width - left);
    // A left text wider than its column has its own line, as yargs wraps it.
    if (head.length + 2 > left) out.push(head);
    right.forEach((line, i) => out.push(`${i === 0 && head.length + 2 <= left ? head.padEnd(left) : ' '.repeat(left)}${line}`));
  }
  return out;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
