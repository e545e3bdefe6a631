/**
 * The `bench` command line. This is the one place that turns errors into exit codes:
 *   0 success · 1 a bug (stack printed) or a regression found by `bench check` ·
 *   2 a user error (one line: file, place, problem) · 130 interrupted
 */
import { asksTopLevelHelp, EPILOG, EXAMPLES, helpWidth, topLevelHelp, USAGE } from './cli-help.ts';
import { COMMANDS } from './commands/index.ts';
import { installInterrupts } from './interrupts.ts';
import { asEnvironmentError, isUserError, keptNoteOf, printableLines, UserError } from './errors.ts';
import { checkOutRoot } from './results/out-root.ts';

class UsageError extends UserError {}

/** The command the arguments name: the first one that is not an option. */
function namedCommand(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

function exitCodeOf(e: unknown): number {
  if (isUserError(e)) return 2;
  // InterruptedRun (commands/run.ts) by name: importing it would load the runner for every command.
  if (e instanceof Error && (e.name === 'InterruptedRun' || e.name === 'AbortError')) return 130;
  if (e && typeof e === 'object' && 'exitCode' in e && typeof e.exitCode === 'number') return e.exitCode;
  return 1;
}

/**
 * A reader that stops early (`bench list | head`) closes the pipe: that ends the output, it is
 * no error. Everything a command leaves on disk is in place before it writes to stdout.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

/**
 * yargs lays out a command's whole help as the command starts, in case its handler asks for it
 * later: 20 to 40 ms of text measuring at every `bench run`, for nothing (no handler asks, and
 * failures go through .fail). The hook is yargs' own internals: should a release drop it, the
 * help is laid out as before and nothing else changes.
 */
function skipHelpCaching(y: object): void {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } };
  const usage = (y as Internals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

async function main(): Promise<void> {
  installInterrupts();
  endQuietlyOnClosedPipe();
  try {
    const args = process.argv.slice(2);
    if (asksTopLevelHelp(args)) {
      process.stdout.write(topLevelHelp(helpWidth(process.stdout.columns)));
      return;
    }
    const named = namedCommand(args);
    // The named command's modules load while yargs does (their files are read meanwhile).
    const command = COMMANDS.find((c) => c.command.split(' ')[0] === named);
    const loading = command?.load();
    loading?.catch(() => undefined); // awaited below, after yargs
    const { default: yargs } = await import('yargs');
    const y = yargs(args)
      // `bench run`: a results root that cannot be written fails now, before the corpus is read.
      .middleware(async (argv) => {
        if (argv._[0] === 'run' && argv['dry-run'] !== true && typeof argv.out === 'string') await checkOutRoot(argv.out);
      })
      .scriptName('bench')
      .usage(USAGE);
    for (const c of COMMANDS) {
      // The named command is loaded whole (its options, its handler); the others are listed only.
      if (c === command && loading) y.command(await loading);
      else y.command(c.command, c.describe, {}, () => undefined);
    }
    skipHelpCaching(y);
    await y
      .demandCommand(1, 'name a command (see --help)')
      .strict()
      .recommendCommands()
      .fail((msg, err) => {
        if (err) throw err;
        throw new UsageError(`bench: ${msg} (run 'bench --help' for usage)`);
      })
      .example(EXAMPLES.map(([c, d]) => [c, d]))
      .epilog(EPILOG)
      .wrap(helpWidth(process.stdout.columns))
      .parseAsync();
  } catch (caught) {
    // An unwritable folder or a full disk met while writing is the environment's doing, not a bug.
    const e = asEnvironmentError(caught) ?? caught;
    const code = exitCodeOf(e);
    if (code === 1 && !(e && typeof e === 'object' && 'exitCode' in e)) {
      const report = e instanceof Error ? (e.stack ?? e.message) : String(e);
      process.stderr.write(`bench: internal error (a bug — please report it):\n${printableLines(report, false).join('\n')}\n`);
    } else {
      const message = e instanceof Error ? e.message : String(e);
      process.stderr.write(`${printableLines(message, code === 2).map((l) => (code === 2 ? `error: ${l}` : l)).join('\n')}\n`);
    }
    const kept = keptNoteOf(caught) ?? keptNoteOf(e);
    if (kept !== undefined) process.stderr.write(`note: ${kept}\n`);
    process.exitCode = code;
  }
}

await main();
