import type { CommandModule } from 'yargs';

/** A command module with its own argument types, as yargs takes any. */
const loaded = <T>(m: CommandModule<object, T>): CommandModule => m as unknown as CommandModule;

/**
 * The commands, loaded only when named: `bench --help` reads this table and nothing else, and
 * `bench run` loads what running needs (the AWS SDK only for EMR). `command` and `describe` are
 * each module's own (test/harness/cli-commands.test.ts keeps them equal).
 */
export const COMMANDS: readonly { readonly command: string; readonly describe: string; load(): Promise<CommandModule> }[] = [
  { command: 'run <config>', describe: 'run an experiment and write results/<experiment>/<run-id>/', load: async () => loaded((await import('./run.ts')).runCommand) },
  {
    command: 'score <config> <files..>',
    describe: "score pairs or clusters produced elsewhere against a config's ground truth, written as the variants of a run folder",
    load: async () => loaded((await import('./score.ts')).scoreCommand),
  },
  {
    command: 'validate <config>',
    describe: 'check a config without running it: schema, ${VARS}, files, sweeps',
    load: async () => loaded((await import('./validate.ts')).validateCommand),
  },
  { command: 'list', describe: 'every algorithm with its parameters, defaults and descriptions', load: async () => loaded((await import('./list.ts')).listCommand) },
  {
    command: 'corpus <config>',
    describe: "read an experiment's corpus (after subsetting) and print what was read and skipped",
    load: async () => loaded((await import('./corpus.ts')).corpusCommand),
  },
  {
    command: 'report [results-dir]',
    describe: 'Write leaderboard.html over every run under a results folder (or report.html of one run folder)',
    load: async () => loaded((await import('./report.ts')).reportCommand),
  },
  {
    command: 'baseline <runs..>',
    describe: 'Write a regression baseline (quality and timing samples per variant) from one or more run folders of one config',
    load: async () => loaded((await import('./baseline.ts')).baselineCommand),
  },
  {
    command: 'check <runs..>',
    describe: 'Compare run folders with a baseline: quality exactly, timings statistically; exit 1 on a regression',
    load: async () => loaded((await import('./check.ts')).checkCommand),
  },
  {
    command: 'cache',
    describe: 'the cache of read collections and their fingerprints, replayed by later runs: where, what, --clear to empty it',
    load: async () => loaded((await import('./cache.ts')).cacheCommand),
  },
  {
    command: 'explain <run> <variant> <a> <b>',
    describe: 'why a variant of a finished run decided what it did about two documents: sizes, exact resemblance, shared text, the detector’s evidence',
    load: async () => loaded((await import('./explain.ts')).explainCommand),
  },
  {
    command: 'cost-curve <runs..>',
    describe: 'Write the CPU-seconds-per-MB points of finished runs at several corpus sizes: the cost curves an EMR estimate scales (backend.cost_curve)',
    load: async () => loaded((await import('./cost-curve.ts')).costCurveCommand),
  },
  { command: 'prices', describe: 'the dated EMR price table used for cost', load: async () => loaded((await import('./prices.ts')).pricesCommand) },
  {
    command: 'synth <kind>',
    describe:
      'build a corpus with planted near-duplicates and its oracle (partial: runs of real sentences copied between documents; scale: any number of documents of real words with planted copies at known edit rates)',
    load: async () => loaded((await import('./synth.ts')).synthCommand),
  },
];
