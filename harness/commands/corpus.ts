import type { CommandModule } from 'yargs';
import { corpusCacheFromEnv } from '../corpus/cache.ts';
import { describeSkip } from '../corpus/read.ts';
import { readExperimentCorpus } from '../experiment/corpus.ts';
import { loadExperiment, strictly } from '../experiment/load.ts';
import { progressFor } from '../progress.ts';

interface CorpusArgs {
  config: string;
  strict?: boolean;
  count?: boolean;
  ids?: boolean;
  'corpus-cache': boolean;
}

export const corpusCommand: CommandModule<object, CorpusArgs> = {
  command: 'corpus <config>',
  describe: "read an experiment's corpus (after subsetting) and print what was read and skipped",
  builder: (y) =>
    y
      .positional('config', { type: 'string', demandOption: true, describe: 'experiment YAML file' })
      // No defaults: yargs counts a default as given, and `conflicts` would always fire.
      .option('count', { type: 'boolean', describe: 'print only the number of documents' })
      .option('ids', { type: 'boolean', describe: 'print the document ids, one a line' })
      .option('strict', { type: 'boolean', describe: 'every skipped or recovered record is an error (exit 2)' })
      .option('corpus-cache', { type: 'boolean', default: true, describe: 'replay the corpus from the cache of earlier reads, or fill it (--no-corpus-cache: read the collection)' })
      .conflicts('count', 'ids'),
  handler: async (args) => {
    const loaded = await loadExperiment(args.config);
    const exp = args.strict ? strictly(loaded) : loaded;
    const progress = progressFor();
    const cache = args['corpus-cache'] ? corpusCacheFromEnv(process.env) : undefined;
    const r = await readExperimentCorpus(exp, { onDocument: (n) => n % 500 === 0 && progress.update('reading documents', n), ...(cache ? { cache } : {}) });
    progress.done();
    const out = process.stdout;
    if (args.count) {
      out.write(`${r.docs.ids.length}\n`);
    } else if (args.ids) {
      for (const id of r.docs.ids) out.write(`${id}\n`);
    } else {
      out.write(`${exp.corpus.format} corpus ${exp.corpus.path ?? '(bundled)'}\n`);
      out.write(`documents: ${r.docs.ids.length}\n`);
      out.write(`records read: ${r.stats.read}\n`);
      if (r.subset) {
        out.write(`subset: ${r.subset.spec.ids.size} selected, ${r.subset.outside} read but not selected, ${r.subset.missing} selected but not found\n`);
      }
      for (const [reason, n] of Object.entries(r.stats.skipped)) out.write(`skipped (${reason}): ${n}\n`);
      for (const [reason, n] of Object.entries(r.stats.recovered)) out.write(`read with a fallback (${reason}): ${n}\n`);
      out.write(`read in ${r.seconds.toFixed(2)} s${r.stats.cache === 'hit' ? ' (from the corpus cache)' : ''}\n`);
    }
    // Counters go to stderr with --count/--ids so that stdout stays machine-readable.
    if (args.count || args.ids) {
      const skips = Object.entries(r.stats.skipped).map(([k, n]) => `${k} ${n}`);
      const rec = Object.entries(r.stats.recovered).map(([k, n]) => `${k} ${n}`);
      if (skips.length + rec.length > 0) {
        process.stderr.write(`skipped: ${skips.join(', ') || 'none'}; read with a fallback: ${rec.join(', ') || 'none'}\n`);
      }
    }
    for (const s of r.stats.skips.slice(0, 5)) process.stderr.write(`  ${describeSkip(s)}\n`);
  },
};
