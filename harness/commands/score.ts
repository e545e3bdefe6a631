import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { loadAdapters } from '../../algorithms/registry.ts';
import { corpusCacheFromEnv } from '../corpus/cache.ts';
import { runExperiment } from '../experiment/runner.ts';
import { withScoredFiles } from '../experiment/scored-files.ts';
import { onInterrupt } from '../interrupts.ts';
import { progressFor } from '../progress.ts';
import { writeRunReportIfAvailable } from '../report/hook.ts';
import { summaryTable } from '../results/summary.ts';
import { InterruptedRun } from './run.ts';

export interface ScoreArgs {
  config: string;
  files: string[];
  format: 'pairs' | 'clusters';
  score: 'resemblance' | 'other' | 'none';
  'score-floor': number;
  decisions: 'every-reported-pair' | 'score-at-threshold';
  name: string[];
  out: string;
  force: boolean;
  strict: boolean;
  'run-id'?: string;
}

export const scoreCommand: CommandModule<object, ScoreArgs> = {
  command: 'score <config> <files..>',
  describe: "score pairs or clusters produced elsewhere against a config's ground truth, written as the variants of a run folder",
  builder: (y) =>
    y
      .positional('config', { type: 'string', demandOption: true, describe: 'experiment YAML file: its corpus, ground truth and evaluate settings (its runs are left out)' })
      .positional('files', { type: 'string', array: true, demandOption: true, describe: 'files of doc_a,doc_b[,score] or doc,cluster lines by document id (.gz: gzip), one variant each' })
      .option('format', { choices: ['pairs', 'clusters'] as const, default: 'pairs' as const, describe: 'what the files hold' })
      .option('score', {
        choices: ['resemblance', 'other', 'none'] as const,
        default: 'none' as const,
        describe: 'what the third field of a pairs line means: an estimate of the resemblance, a score on another scale, or none (every pair scores 1)',
      })
      .option('score-floor', { type: 'number', default: 0, describe: 'with --score resemblance: the score from which the files hold every pair found' })
      .option('decisions', {
        choices: ['every-reported-pair', 'score-at-threshold'] as const,
        default: 'every-reported-pair' as const,
        describe: "which pairs are the near-duplicates: every pair in the file, or those scoring at least the config's evaluate.threshold",
      })
      .option('name', { type: 'string', array: true, default: [], describe: "each file's variant name, in order (default: the file's name without .gz and .csv)" })
      .option('out', { type: 'string', default: 'results', describe: 'results root folder' })
      .option('force', { type: 'boolean', default: false, describe: 'replace a complete run of the same id' })
      .option('strict', { type: 'boolean', default: false, describe: 'a malformed line or an unknown document id is an error, not a counted skip' })
      .option('run-id', { type: 'string', describe: 'folder name of the run (default: a hash of the config and the files)' }),
  handler: async (args) => {
    const adapters = await loadAdapters();
    const controller = new AbortController();
    const release = onInterrupt(() => controller.abort(new InterruptedRun()));
    try {
      const cache = corpusCacheFromEnv(process.env);
      const outcome = await runExperiment({
        configFile: args.config,
        outRoot: resolve(args.out),
        only: [],
        earlier: { complete: args.force ? 'replace' : 'keep', checkpoint: args.force ? 'discard' : 'refuse' },
        inputs: { skips: args.strict ? 'fail' : 'config', ...(cache ? { corpusCache: cache } : {}) },
        ...(args['run-id'] !== undefined ? { runId: args['run-id'] } : {}),
        env: process.env,
        progress: progressFor(),
        signal: controller.signal,
        writeReport: writeRunReportIfAvailable,
        reshape: (exp) =>
          withScoredFiles(exp, adapters, {
            files: args.files,
            declared: { format: args.format, score: args.score, scoreFloor: args['score-floor'], decisions: args.decisions },
            ...(args.name.length > 0 ? { names: args.name } : {}),
          }),
      });
      if (outcome.kind === 'already-complete') {
        process.stdout.write(`already complete: ${outcome.dir} (use --force to score again)\n`);
        return;
      }
      if (outcome.kind !== 'completed') return;
      process.stdout.write(summaryTable(outcome.record));
      for (const w of outcome.record.warnings.slice(0, 10)) process.stdout.write(`warning: ${w}\n`);
      process.stdout.write(`results: ${outcome.dir}\n`);
    } finally {
      release();
    }
  },
};
