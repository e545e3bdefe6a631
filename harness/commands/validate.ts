import type { CommandModule } from 'yargs';
import { readCorpus, newCorpusStats } from '../corpus/read.ts';
import { readerOptionsOf } from '../corpus/registry.ts';
import { loadExperiment } from '../experiment/load.ts';
import type { Experiment } from '../experiment/types.ts';

/**
 * The corpus's first document, or the one-line error reading gives: a config can be valid and
 * still name an empty folder, or a JSONL file whose records keep their text under another field.
 * Reading stops at the first document, so a large collection costs no more than its first record.
 */
async function firstDocument(exp: Experiment): Promise<string> {
  const c = exp.corpus;
  const source = readCorpus({ format: c.format, ...(c.path !== undefined ? { path: c.path } : {}), options: readerOptionsOf(c), limit: 1, strict: c.strict }, newCorpusStats());
  for await (const doc of source) return doc.id;
  // readCorpus throws a DataError naming the file when it reads no document at all.
  throw new Error('readCorpus ended without a document or an error');
}

export const validateCommand: CommandModule<object, { config: string }> = {
  command: 'validate <config>',
  describe: 'check a config without running it: schema, ${VARS}, files, sweeps',
  builder: (y) => y.positional('config', { type: 'string', demandOption: true, describe: 'experiment YAML file' }),
  handler: async (args) => {
    const exp = await loadExperiment(args.config);
    const first = await firstDocument(exp);
    const names = [exp.groundTruth, ...exp.variants].map((v) => `  ${v.name}`);
    process.stdout.write(
      `${args.config}: valid — experiment ${exp.name}, ${exp.corpus.format} corpus (readable; first document ${JSON.stringify(first)}), backend ${exp.backend.kind}, ` +
        `${exp.variants.length + 1} variants:\n${names.join('\n')}\n`,
    );
  },
};
