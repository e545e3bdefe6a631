import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { runExperiment } from '../experiment/runner.ts';
import { progressFor } from '../progress.ts';
import { summaryTable } from '../results/summary.ts';
import { writeRunReportIfAvailable } from '../report/hook.ts';

interface RunArgs {
  config: string;
  out: string;
  only: string[];
  force: boolean;
  'run-id'?: string;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run <config>',
  describe: 'run an experiment and write results/<experiment>/<run-id>/',
  builder: (y) =>
    y
      .positional('config', { type: 'string', demandOption: true, describe: 'experiment YAML file' })
      .option('out', { type: 'string', default: 'results', describe: 'results root folder' })
      .option('only', {
        type: 'string',
        array: true,
        default: [],
        describe: 'run only these variants (names or globs, e.g. "broder/sct=*"); the ground truth always runs',
      })
      .option('force', { type: 'boolean', default: false, describe: 'rerun and replace a complete run of the same id' })
      .option('run-id', { type: 'string', describe: 'folder name of the run (default: a hash of config and --only)' }),
  handler: async (args) => {
    const controller = new AbortController();
    const onSignal = (): void => controller.abort(new InterruptedRun());
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const outcome = await runExperiment({
        configFile: args.config,
        outRoot: resolve(args.out),
        only: args.only,
        force: args.force,
        ...(args['run-id'] !== undefined ? { runId: args['run-id'] } : {}),
        env: process.env,
        progress: progressFor(),
        signal: controller.signal,
        writeReport: writeRunReportIfAvailable,
      });
      if (outcome.kind === 'already-complete') {
        process.stdout.write(`already complete: ${outcome.dir} (use --force to run it again)\n`);
        return;
      }
      process.stdout.write(summaryTable(outcome.record));
      for (const w of outcome.record.warnings.slice(0, 10)) process.stdout.write(`warning: ${w}\n`);
      if (outcome.record.warnings.length > 10) {
        process.stdout.write(`… ${outcome.record.warnings.length - 10} more warnings in run.json\n`);
      }
      process.stdout.write(`results: ${outcome.dir}\n`);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

export class InterruptedRun extends Error {
  override readonly name = 'InterruptedRun';
  constructor() {
    super('interrupted: no results were written');
  }
}
