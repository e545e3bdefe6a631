/** `bench baseline <run-dir>... --out <file>`: the baseline `bench check` compares with. */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CommandModule } from 'yargs';
import { writeFileAtomic } from '../../kernels/io/atomic-write.ts';
import { readCompleteRunRecord } from '../report/read-run.ts';
import { baselineFromRuns } from '../report/regression/baseline.ts';

export interface BaselineArgs {
  readonly runs: readonly string[];
  readonly out: string;
}

export async function writeBaseline(args: BaselineArgs, print: (text: string) => void, now: Date = new Date()): Promise<void> {
  const records = await Promise.all(args.runs.map(readCompleteRunRecord));
  const baseline = baselineFromRuns(records, (i) => join(args.runs[i] ?? '', 'run.json'), now);
  await mkdir(dirname(args.out), { recursive: true });
  await writeFileAtomic(args.out, `${JSON.stringify(baseline, null, 2)}\n`);
  const variants = Object.keys(baseline.variants).length;
  print(`wrote ${args.out}: ${baseline.experiment}, ${variants} variant${variants === 1 ? '' : 's'}, ${records.length} timing sample${records.length === 1 ? '' : 's'} each\n`);
}

export const baselineCommand: CommandModule<object, { runs: string[]; out: string }> = {
  command: 'baseline <runs..>',
  describe: 'Write a regression baseline (quality and timing samples per variant) from one or more run folders of one config',
  builder: (y) =>
    y
      .positional('runs', { type: 'string', array: true, demandOption: true, describe: 'run folders (repetitions of one config give several timing samples)' })
      .option('out', { type: 'string', demandOption: true, describe: 'baseline file to write, e.g. results/baselines/quickstart.json' }),
  handler: async (argv) => {
    await writeBaseline({ runs: argv.runs, out: argv.out }, (t) => process.stdout.write(t));
  },
};
