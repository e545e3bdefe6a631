/**
 * The `bench` command line. This is the one place that turns errors into exit codes:
 *   0 success · 1 a bug (stack printed) or a regression found by `bench check` ·
 *   2 a user error (one line: file, place, problem) · 130 interrupted
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { asEnvironmentError, isUserError, printableLines, UserError } from './errors.ts';
import { checkOutRoot } from './results/out-root.ts';
import { baselineCommand } from './commands/baseline.ts';
import { checkCommand } from './commands/check.ts';
import { corpusCommand } from './commands/corpus.ts';
import { listCommand } from './commands/list.ts';
import { pricesCommand } from './commands/prices.ts';
import { synthCommand } from './commands/synth.ts';
import { reportCommand } from './commands/report.ts';
import { InterruptedRun, runCommand } from './commands/run.ts';
import { validateCommand } from './commands/validate.ts';

class UsageError extends UserError {}

function exitCodeOf(e: unknown): number {
  if (isUserError(e)) return 2;
  if (e instanceof InterruptedRun || (e instanceof Error && e.name === 'AbortError')) return 130;
  if (e && typeof e === 'object' && 'exitCode' in e && typeof e.exitCode === 'number') return e.exitCode;
  return 1;
}

async function main(): Promise<void> {
  try {
    await yargs(hideBin(process.argv))
      // `bench run`: a results root that cannot be written fails now, before the corpus is read.
      .middleware(async (argv) => {
        if (argv._[0] === 'run' && argv['dry-run'] !== true && typeof argv.out === 'string') await checkOutRoot(argv.out);
      })
      .scriptName('bench')
      .usage('$0 <command> [options]\n\nBenchmark and evaluation harness for near-duplicate document detection.')
      .command(runCommand)
      .command(validateCommand)
      .command(listCommand)
      .command(corpusCommand)
      .command(reportCommand)
      .command(baselineCommand)
      .command(checkCommand)
      .command(pricesCommand)
      .command(synthCommand)
      .demandCommand(1, 'name a command (see --help)')
      .strict()
      .recommendCommands()
      .fail((msg, err) => {
        if (err) throw err;
        throw new UsageError(`bench: ${msg} (run 'bench --help' for usage)`);
      })
      .example('$0 run configs/quickstart.yaml', 'run the bundled-corpus experiment')
      .example('$0 run configs/quickstart.yaml --only "broder/sct=*"', 'the ground truth and the SCT sweep only')
      .example('$0 validate configs/gov2-sct.yaml', 'check a config without running it')
      .epilog('Exit codes: 0 ok, 1 internal error or regression, 2 bad input, 130 interrupted.')
      .wrap(Math.min(110, process.stdout.columns ?? 100))
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
    process.exitCode = code;
  }
}

await main();
