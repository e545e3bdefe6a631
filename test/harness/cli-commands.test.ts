/** The command table `bench --help` is built from says what each command module says. */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../harness/commands/index.ts';

describe('the command table', () => {
  it.each(COMMANDS.map((c) => [c.command, c] as const))('%s: command and description are the module\'s own', async (_name, c) => {
    const m = await c.load();
    expect({ command: m.command, describe: m.describe }).toEqual({ command: c.command, describe: c.describe });
  });
});
