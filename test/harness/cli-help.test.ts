import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { asksTopLevelHelp, EPILOG, topLevelHelp, USAGE } from '../../harness/cli-help.ts';
import { COMMANDS } from '../../harness/commands/index.ts';

/** yargs' own help for the same table: the second method the static help is checked against. */
async function yargsHelp(width: number): Promise<string> {
  const y = yargs([]).scriptName('bench').usage(USAGE);
  for (const c of COMMANDS) y.command(c.command, c.describe, {}, () => undefined);
  return y.epilog(EPILOG).wrap(width).getHelp();
}

function section(text: string, title: string): string {
  const lines = text.split('\n');
  const from = lines.indexOf(title);
  const to = lines.indexOf('', from);
  return lines.slice(from, to).join('\n');
}

describe('bench --help', () => {
  it.each([80, 100, 110])('lays out the commands exactly as yargs does at width %i', async (width) => {
    const ours = topLevelHelp(width);
    const theirs = await yargsHelp(width);
    expect(section(ours, 'Commands:')).toBe(section(theirs, 'Commands:'));
    expect(section(ours, 'Options:')).toBe(section(theirs, 'Options:'));
    expect(ours.startsWith(theirs.split('\n\nCommands:')[0] as string)).toBe(true);
  });

  it('ends with the exit codes and keeps every line within the width', () => {
    const text = topLevelHelp(80);
    expect(text.trimEnd().endsWith(EPILOG)).toBe(true);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('answers only a bare --help; anything else goes to yargs', () => {
    expect(asksTopLevelHelp(['--help'])).toBe(true);
    expect(asksTopLevelHelp(['run', '--help'])).toBe(false);
    expect(asksTopLevelHelp([])).toBe(false);
    expect(asksTopLevelHelp(['--version'])).toBe(false);
  });
});

describe('bench COMMAND --help', () => {
  // yargs right-aligns "[string] [default: …]" after a description; when the two just fill the
  // width it glues them ("…one run folder[string]"). Every command's help, at the width of a pipe.
  it.each(COMMANDS.map((c) => c.command.split(' ')[0] as string))('%s: no description runs into its type or default', async (name) => {
    const { runBench } = await import('../support/cli.ts');
    const r = await runBench([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /[^\s[]\[(string|boolean|number|array|count|default|choices|required)/.test(l))).toEqual([]);
  });
});
