/**
 * `bench check <run-dir>... --baseline <file>`: exit 0 when nothing regressed. On a regression
 * the table is printed and `RegressionFound` is thrown; it carries `exitCode = 1` and a
 * one-line message, and is not a bug: the CLI prints the message without a stack.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../errors.ts';
import { readCompleteRunRecord } from '../report/read-run.ts';
import { parseBaseline } from '../report/regression/baseline.ts';
import { checkRuns, formatCheckReport, regressionCount } from '../report/regression/check.ts';
import { DEFAULT_TIMING } from '../report/regression/timing.ts';

export class RegressionFound extends Error {
  override readonly name = 'RegressionFound';
  readonly exitCode = 1;
}

export interface CheckArgs {
  readonly runs: readonly string[];
  readonly baseline: string;
  readonly minFactor: number;
  readonly minDelta?: number;
  readonly qualityOnly: boolean;
}

export async function check(args: CheckArgs, print: (text: string) => void): Promise<void> {
  if (!(args.minFactor > 1)) throw new UserError(`--min-factor: must be greater than 1, got ${args.minFactor}`);
  let text: string;
  try {
    text = await readFile(args.baseline, 'utf8');
  } catch (e) {
    throw new UserError(`${args.baseline}: cannot read baseline: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const baseline = parseBaseline(text, args.baseline);
  // Never a verdict on a run with a file missing or changed.
  const records = await Promise.all(args.runs.map(readCompleteRunRecord));
  const report = checkRuns(records, baseline, args.baseline, (i) => join(args.runs[i] ?? '', 'run.json'), {
    ...DEFAULT_TIMING,
    minFactor: args.minFactor,
    minDelta: args.minDelta ?? DEFAULT_TIMING.minDelta,
    qualityOnly: args.qualityOnly,
  });
  print(formatCheckReport(report, args.baseline));
  const n = regressionCount(report);
  if (n > 0) throw new RegressionFound(`${n} regression${n === 1 ? '' : 's'} against ${args.baseline}`);
}

export const checkCommand: CommandModule<object, { runs: string[]; baseline: string; 'min-factor': number; 'min-delta': number; 'quality-only': boolean }> = {
  command: 'check <runs..>',
  describe: 'Compare run folders with a baseline: quality exactly, timings statistically; exit 1 on a regression',
  builder: (y) =>
    y
      .positional('runs', { type: 'string', array: true, demandOption: true, describe: 'run folders (repetitions of one config)' })
      .option('baseline', { type: 'string', demandOption: true, describe: 'baseline file written by `bench baseline`' })
      .option('min-factor', { type: 'number', default: DEFAULT_TIMING.minFactor, describe: 'slowdown (ratio of medians) that counts as a timing regression' })
      .option('min-delta', { type: 'number', default: DEFAULT_TIMING.minDelta, describe: 'seconds: medians closer than this are never a regression (noise on short variants)' })
      .option('quality-only', { type: 'boolean', default: false, describe: 'compare quality only (timings are too noisy on shared CI machines)' }),
  handler: async (argv) => {
    await check(
      { runs: argv.runs, baseline: argv.baseline, minFactor: argv.minFactor, minDelta: argv['min-delta'], qualityOnly: argv.qualityOnly },
      (t) => process.stdout.write(t),
    );
  },
};
