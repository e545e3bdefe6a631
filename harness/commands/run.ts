import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { corpusCacheFromEnv, type CorpusCacheOptions } from '../corpus/cache.ts';
import { runExperiment } from '../experiment/runner.ts';
import { onInterrupt } from '../interrupts.ts';
import { progressFor } from '../progress.ts';
import { shellWord } from '../format.ts';
import { loadAdapters } from '../../algorithms/registry.ts';
import { legendLines, legendOfDetectors } from '../results/legend.ts';
import { summaryTable } from '../results/summary.ts';
import { writeRunReportIfAvailable } from '../report/hook.ts';

export interface RunArgs {
  config: string;
  strict: boolean;
  backend?: string;
  'dry-run': boolean;
  docs?: number;
  'doc-bytes'?: number;
  out: string;
  only: string[];
  force: boolean;
  'run-id'?: string;
  resume: boolean;
  'hash-inputs': boolean;
  'corpus-cache': boolean;
  'stored-values': boolean;
}

// Only `bench run --help` loads every detector, to list the columns their measures add.
const asksHelp = process.argv.includes('--help') || process.argv.includes('-h');
const legend = asksHelp ? legendLines(legendOfDetectors(await loadAdapters())) : [];

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
      .option('force', { type: 'boolean', default: false, describe: 'rerun and replace a complete run of the same id (of any inputs), or start over from an interrupted one' })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe: 'finish an interrupted or failed run of the same config and inputs: its finished variants are taken from its checkpoint (without --resume or --force, a run whose checkpoint holds saved variants is refused)',
      })
      .option('hash-inputs', {
        type: 'boolean',
        default: false,
        describe: 'tell whether the corpus and run files changed by their content (SHA-256) instead of their sizes and times',
      })
      .option('corpus-cache', {
        type: 'boolean',
        default: true,
        describe:
          "replay the corpus and its fingerprints from the cache of earlier runs, or fill it (--no-corpus-cache: read the collection and compute everything; 'bench cache' for where and how big)",
      })
      .option('stored-values', {
        type: 'boolean',
        default: true,
        describe: "with the corpus cache, replay fingerprints and entry orders earlier runs stored (--no-stored-values: compute them, so that every variant's runtime includes them, as for a cost curve)",
      })
      .option('run-id', { type: 'string', describe: "folder name of the run: letters, digits, '.', '_', '-' (default: a hash of config and --only)" })
      .option('strict', {
        type: 'boolean',
        default: false,
        describe: 'every skipped or recovered record of the corpus, qrels or runs is an error (exit 2)',
      })
      .option('backend', {
        type: 'string',
        choices: ['local', 'streaming', 'hadoop', 'spark', 'emr'],
        describe: "run on this backend instead of the config's `backend` (settings from its `backends:` list)",
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'print the plan as JSON (for emr: every S3 object and API request) without reading data or calling AWS',
      })
      .option('docs', { type: 'number', describe: '--dry-run: number of documents, when the config has no subset or limit' })
      .option('doc-bytes', { type: 'number', describe: '--dry-run: average document size in bytes (default 17000, GOV2)' })
      .epilog(legend.length > 0 ? `The summary's columns (the run report's Columns section names their metrics.csv columns):\n${legend.join('\n')}` : ''),
  handler: async (args) => {
    const controller = new AbortController();
    const release = onInterrupt(() => controller.abort(new InterruptedRun()));
    try {
      const outcome = await runExperiment({
        configFile: args.config,
        outRoot: resolve(args.out),
        only: args.only,
        earlier: { complete: args.force ? 'replace' : 'keep', checkpoint: args.resume ? 'resume' : args.force ? 'discard' : 'refuse' },
        resumeCommand: (runId) => resumeCommand(args, runId),
        inputs: {
          skips: args.strict ? 'fail' : 'config',
          identifyFilesBy: args['hash-inputs'] ? 'content' : 'stat',
          ...(args['corpus-cache'] ? withCache(corpusCacheFromEnv(process.env)) : {}),
          storedValues: args['stored-values'] ? 'replay' : 'compute',
        },
        ...(args['run-id'] !== undefined ? { runId: args['run-id'] } : {}),
        env: process.env,
        progress: progressFor(),
        signal: controller.signal,
        writeReport: writeRunReportIfAvailable,
        ...(args.backend !== undefined ? { backendKind: args.backend } : {}),
        ...(args['dry-run']
          ? {
              dryRun: {
                ...(args.docs !== undefined ? { documents: args.docs } : {}),
                ...(args['doc-bytes'] !== undefined ? { documentBytes: args['doc-bytes'] } : {}),
              },
            }
          : {}),
      });
      if (outcome.kind === 'dry-run') {
        // The plan's lines for people (the EMR estimate) go to stderr, so that stdout stays JSON.
        const summary = (outcome.plan as { summary?: unknown }).summary;
        if (Array.isArray(summary)) for (const line of summary) process.stderr.write(`${String(line)}\n`);
        process.stdout.write(`${JSON.stringify(outcome.plan, null, 2)}\n`);
        return;
      }
      if (outcome.kind === 'already-complete') {
        process.stdout.write(`already complete: ${outcome.dir} (use --force to run it again)\n`);
        return;
      }
      process.stdout.write(summaryTable(outcome.record));
      // What was left out of the corpus first: it changes every figure, and hides among the variants' notes.
      const warnings = [...outcome.record.warnings].sort((x, y) => Number(!x.startsWith('corpus')) - Number(!y.startsWith('corpus')));
      for (const w of warnings.slice(0, 10)) process.stdout.write(`warning: ${w}\n`);
      if (outcome.record.warnings.length > 10) {
        process.stdout.write(`… ${outcome.record.warnings.length - 10} more warnings in run.json\n`);
      }
      process.stdout.write(`results: ${outcome.dir}\n`);
    } finally {
      release();
    }
  },
};

/**
 * The command that finishes an interrupted run: how this CLI was started, then the options the
 * run had (the run id spelled out, since a default one hashes the selection) and --resume.
 */
export function resumeCommand(args: RunArgs, runId: string, started: { readonly cwd: string; readonly script: string | undefined } = { cwd: process.cwd(), script: process.argv[1] }): string {
  const repo = started.script ? resolve(started.script, '..', '..') : undefined;
  const program = repo !== undefined && resolve(started.cwd) === repo ? ['./bench'] : started.script ? ['node', started.script] : ['bench'];
  const words = [...program, 'run', args.config, '--out', args.out, '--run-id', runId];
  for (const o of args.only) words.push('--only', o);
  if (args.backend !== undefined) words.push('--backend', args.backend);
  if (args.strict) words.push('--strict');
  if (args['hash-inputs']) words.push('--hash-inputs');
  if (!args['corpus-cache']) words.push('--no-corpus-cache');
  if (!args['stored-values']) words.push('--no-stored-values');
  words.push('--resume');
  return words.map(shellWord).join(' ');
}

const withCache = (cache: CorpusCacheOptions | undefined): { corpusCache?: CorpusCacheOptions } => (cache ? { corpusCache: cache } : {});

export class InterruptedRun extends Error {
  override readonly name = 'InterruptedRun';
  constructor() {
    super('interrupted: no results were written');
  }
}
