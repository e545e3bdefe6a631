import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import type { Document } from '../../contract/index.ts';
import { newCorpusStats, readCorpus } from '../corpus/read.ts';
import { readExperimentCorpus } from '../experiment/corpus.ts';
import { loadExperiment } from '../experiment/load.ts';
import { UserError } from '../errors.ts';
import { progressFor } from '../progress.ts';
import { oracleCsv } from '../synth/oracle-file.ts';
import { DEFAULT_SYNTH, synthPartial } from '../synth/partial.ts';

interface SynthArgs {
  kind: string;
  out: string;
  from?: string;
  seed: number;
  plants: number;
  documents: number;
  'min-run': number;
  'max-run': number;
  'edit-rate': number;
  'min-words': number;
}

export const synthCommand: CommandModule<object, SynthArgs> = {
  command: 'synth <kind>',
  describe: 'build a corpus with planted near-duplicates and its oracle (kind: partial — runs of real sentences copied between documents)',
  builder: (y) =>
    y
      .positional('kind', { type: 'string', choices: ['partial'], demandOption: true, describe: 'what to plant' })
      .option('out', { type: 'string', demandOption: true, describe: 'folder for corpus.jsonl and oracle.csv' })
      .option('from', { type: 'string', describe: "an experiment YAML whose corpus is the source (default: the bundled mail corpus)" })
      .option('seed', { type: 'number', default: 1, describe: 'every random choice derives from it' })
      .option('plants', { type: 'number', default: DEFAULT_SYNTH.plants, describe: 'planted document pairs' })
      .option('documents', { type: 'number', default: DEFAULT_SYNTH.documents, describe: 'documents of the corpus at most (sources, hosts and the rest)' })
      .option('min-run', { type: 'number', default: DEFAULT_SYNTH.minRun, describe: 'fewest sentences a planted run has' })
      .option('max-run', { type: 'number', default: DEFAULT_SYNTH.maxRun, describe: 'most sentences a planted run has' })
      .option('edit-rate', { type: 'number', default: DEFAULT_SYNTH.editRate, describe: 'probability that a copied sentence gets one word replaced' })
      .option('min-words', { type: 'number', default: DEFAULT_SYNTH.minWords, describe: 'sentences of at least this many words are kept unique to the base corpus' }),
  handler: async (args) => {
    for (const k of ['plants', 'documents', 'min-run', 'max-run', 'min-words'] as const) {
      if (!Number.isInteger(args[k]) || args[k] < 1) throw new UserError(`--${k} must be a positive integer, got ${args[k]}`);
    }
    if (!(args['edit-rate'] >= 0 && args['edit-rate'] <= 1)) throw new UserError(`--edit-rate must be in [0, 1], got ${args['edit-rate']}`);
    if (args['max-run'] < args['min-run']) throw new UserError(`--max-run (${args['max-run']}) must be at least --min-run (${args['min-run']})`);
    const progress = progressFor();
    const corpus: Document[] = [];
    if (args.from) {
      const exp = await loadExperiment(args.from, process.env);
      const r = await readExperimentCorpus(exp, { onDocument: (n) => n % 500 === 0 && progress.update('reading documents', n) });
      r.docs.ids.forEach((id, i) => corpus.push({ id, text: r.docs.texts[i] as string }));
    } else {
      for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) {
        corpus.push(d);
        if (corpus.length % 500 === 0) progress.update('reading documents', corpus.length);
      }
    }
    progress.update('planting');
    const r = synthPartial(corpus, {
      plants: args.plants,
      documents: args.documents,
      minRun: args['min-run'],
      maxRun: args['max-run'],
      editRate: args['edit-rate'],
      minWords: args['min-words'],
      seed: args.seed,
    });
    progress.done();
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, 'corpus.jsonl'), r.docs.map((d) => JSON.stringify({ id: d.id, text: d.text })).join('\n') + '\n');
    writeFileSync(join(args.out, 'oracle.csv'), oracleCsv(r.oracle));
    process.stdout.write(
      `${r.docs.length} documents, ${r.oracle.length} planted runs (${r.oracle.reduce((s, o) => s + o.sentences, 0)} sentences) -> ${args.out}\n` +
        `left out: ${r.sharing} sharing a sentence with the base, ${r.withoutSentences} without sentences\n`,
    );
  },
};
