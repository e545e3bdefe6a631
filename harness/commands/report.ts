/** `bench report [results-dir]`: the leaderboard over every run found, or one run's report. */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { DataError } from '../errors.ts';
import { writeLeaderboard, writeRunReport } from '../report/write.ts';

export interface ReportArgs {
  readonly resultsDir: string;
  /** every run folder must be complete: a skipped one is an error (exit 2) */
  readonly strict?: boolean;
}

/**
 * Given a results folder: writes leaderboard.html (and report.html into any run folder that
 * lacks one, so every link resolves). Given a run folder: rewrites its report.html.
 */
export async function report(args: ReportArgs, print: (text: string) => void, warn: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<void> {
  const isRun = await access(join(args.resultsDir, 'run.json')).then(
    () => true,
    () => false,
  );
  if (isRun) {
    await writeRunReport(args.resultsDir);
    print(`wrote ${join(args.resultsDir, 'report.html')}\n`);
    return;
  }
  const r = await writeLeaderboard(args.resultsDir);
  for (const why of r.skipped) warn(`warning: skipped ${why}`);
  if (args.strict && r.skipped.length > 0) throw new DataError(`${r.skipped.length} run folder${r.skipped.length === 1 ? '' : 's'} skipped (--strict): ${r.skipped[0]}`);
  for (const dir of r.reportsWritten) print(`wrote ${join(dir, 'report.html')}\n`);
  print(`wrote ${r.file} (${r.runs} run${r.runs === 1 ? '' : 's'})\n`);
}

export const reportCommand: CommandModule<object, { 'results-dir': string; strict: boolean }> = {
  command: 'report [results-dir]',
  describe: 'Write leaderboard.html over every run under a results folder (or report.html of one run folder)',
  builder: (y) =>
    y
      .positional('results-dir', { type: 'string', default: 'results', describe: 'a results folder (searched at any depth) or one run folder' })
      .option('strict', { type: 'boolean', default: false, describe: 'a run folder that is incomplete or unreadable is an error (exit 2), not a warning' }),
  handler: async (argv) => {
    await report({ resultsDir: argv.resultsDir, strict: argv.strict }, (t) => process.stdout.write(t));
  },
};
