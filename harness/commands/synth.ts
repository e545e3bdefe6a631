import { once } from 'node:events';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { CommandModule } from 'yargs';
import type { Document } from '../../contract/index.ts';
import { newCorpusStats, readCorpus } from '../corpus/read.ts';
import { corpusFormats } from '../corpus/registry.ts';
import { readExperimentCorpus } from '../experiment/corpus.ts';
import { loadExperiment } from '../experiment/load.ts';
import { UserError } from '../errors.ts';
import { progressFor, type Progress } from '../progress.ts';
import { toCsv } from '../csv.ts';
import { oracleCsv } from '../evaluate/oracle-file.ts';
import { DEFAULT_SYNTH, synthPartial } from '../synth/partial.ts';
import { DEFAULT_SCALE, oraclePairs, planScale, scaleDocuments, type ScaleSynthOptions } from '../synth/scale.ts';
import { buildTextModel } from '../synth/text-model.ts';
import { grouped } from '../format.ts';

interface SynthArgs {
  kind: string;
  out: string;
  from?: string;
  source?: string[];
  seed: number;
  plants: number;
  documents?: number;
  'min-run': number;
  'max-run': number;
  'edit-rate': number;
  'min-words': number;
  copies: number;
  'edit-rates': string;
  boilerplate: number;
  'max-share': number;
  text: string;
  templates: number;
}

/** `mail` (the bundled corpus) or `FORMAT:PATH`, read with the project's readers. */
function parseSource(s: string): { format: string; path?: string; label: string } {
  if (s === 'mail') return { format: 'spamassassin', label: 'the bundled mail corpus' };
  const colon = s.indexOf(':');
  const format = colon > 0 ? s.slice(0, colon) : '';
  if (!corpusFormats().includes(format) || colon === s.length - 1) {
    throw new UserError(`--source ${s}: expected mail or FORMAT:PATH with FORMAT one of ${corpusFormats().join(', ')}`);
  }
  return { format, path: s.slice(colon + 1), label: s };
}

/** The real documents a corpus is built from: --from's experiment corpus, the --source corpora, or the bundled mail. */
async function readSources(args: SynthArgs, progress: Progress): Promise<{ docs: Document[]; sources: { source: string; documents: number }[] }> {
  const docs: Document[] = [];
  const sources: { source: string; documents: number }[] = [];
  if (args.from) {
    const exp = await loadExperiment(args.from);
    const r = await readExperimentCorpus(exp, { onDocument: (n) => n % 500 === 0 && progress.update(`reading ${args.from}`, n) });
    r.docs.ids.forEach((id, i) => docs.push({ id, text: r.docs.texts.at(i) as string }));
    sources.push({ source: args.from, documents: r.docs.ids.length });
  }
  const list = args.source ?? (args.from ? [] : ['mail']);
  for (const s of list.map(parseSource)) {
    const before = docs.length;
    for await (const d of readCorpus({ format: s.format, ...(s.path !== undefined ? { path: s.path } : {}) }, newCorpusStats())) {
      docs.push(d);
      if ((docs.length - before) % 500 === 0) progress.update(`reading ${s.label}`, docs.length - before);
    }
    sources.push({ source: s.label, documents: docs.length - before });
  }
  return { docs, sources };
}

export const synthCommand: CommandModule<object, SynthArgs> = {
  command: 'synth <kind>',
  describe:
    'build a corpus with planted near-duplicates and its oracle (partial: runs of real sentences copied between documents; scale: any number of documents of real words with planted copies at known edit rates)',
  builder: (y) =>
    y
      .positional('kind', { type: 'string', choices: ['partial', 'scale'], demandOption: true, describe: 'what to plant' })
      .option('out', { type: 'string', demandOption: true, describe: 'folder for the corpus and its oracle' })
      .option('from', { type: 'string', describe: 'an experiment YAML whose corpus is a source (default: the bundled mail corpus)' })
      .option('source', { type: 'string', array: true, describe: 'a source corpus: mail (the bundled one) or FORMAT:PATH, e.g. html:cacm.tar.gz; repeatable' })
      .option('seed', { type: 'number', default: 1, describe: 'every random choice derives from it' })
      .option('documents', { type: 'number', describe: `partial: documents of the corpus at most (default ${DEFAULT_SYNTH.documents}); scale: documents to write (10000, 100000, 1000000 for the cost curve)` })
      .option('plants', { type: 'number', default: DEFAULT_SYNTH.plants, describe: 'partial: planted document pairs' })
      .option('min-run', { type: 'number', default: DEFAULT_SYNTH.minRun, describe: 'partial: fewest sentences a planted run has' })
      .option('max-run', { type: 'number', default: DEFAULT_SYNTH.maxRun, describe: 'partial: most sentences a planted run has' })
      .option('edit-rate', { type: 'number', default: DEFAULT_SYNTH.editRate, describe: 'partial: probability that a copied sentence gets one word replaced' })
      .option('min-words', { type: 'number', default: DEFAULT_SYNTH.minWords, describe: 'partial: sentences of at least this many words are kept unique to the base corpus' })
      .option('copies', { type: 'number', default: DEFAULT_SCALE.copies, describe: 'scale: share of the documents that are planted copies of another' })
      .option('edit-rates', { type: 'string', default: DEFAULT_SCALE.editRates.join(','), describe: 'scale: the per-word edit rates copies are made at, comma-separated' })
      .option('boilerplate', { type: 'number', default: DEFAULT_SCALE.boilerplate, describe: 'scale: share of the documents that carry a real line shared with others' })
      .option('max-share', { type: 'number', default: DEFAULT_SCALE.maxShare, describe: 'scale: the most documents one shared line is planted in' })
      .option('text', { type: 'string', choices: ['words', 'walk'], default: DEFAULT_SCALE.text, describe: 'scale: words drawn one at a time at their frequencies, or a random walk over the source\'s word pairs (shares phrases as real text does)' })
      .option('templates', { type: 'number', default: DEFAULT_SCALE.templates, describe: 'scale: site templates whose header and footer each base document carries one of (0: none); fewer templates, more shared text' }),
  handler: async (args) => {
    if (args.kind === 'scale') return synthScale(args);
    const documents = args.documents ?? DEFAULT_SYNTH.documents;
    for (const [k, v] of [['plants', args.plants], ['documents', documents], ['min-run', args['min-run']], ['max-run', args['max-run']], ['min-words', args['min-words']]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new UserError(`--${k} must be a positive integer, got ${v}`);
    }
    if (!(args['edit-rate'] >= 0 && args['edit-rate'] <= 1)) throw new UserError(`--edit-rate must be in [0, 1], got ${args['edit-rate']}`);
    if (args['max-run'] < args['min-run']) throw new UserError(`--max-run (${args['max-run']}) must be at least --min-run (${args['min-run']})`);
    const progress = progressFor();
    const { docs: corpus } = await readSources(args, progress);
    progress.update('planting');
    const r = synthPartial(corpus, {
      plants: args.plants,
      documents,
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

export const SCALE_FILES = { corpus: 'corpus.jsonl.gz', oracle: 'oracle-pairs.csv', manifest: 'manifest.json' } as const;

async function synthScale(args: SynthArgs): Promise<void> {
  const options: ScaleSynthOptions = {
    documents: args.documents ?? NaN,
    seed: args.seed,
    copies: args.copies,
    editRates: args['edit-rates'].split(',').map((x) => (x.trim() === '' ? NaN : Number(x))),
    boilerplate: args.boilerplate,
    maxShare: args['max-share'],
    text: args.text as ScaleSynthOptions['text'],
    templates: args.templates,
  };
  if (args.documents === undefined) throw new UserError('synth scale needs --documents N (10000, 100000 and 1000000 make the cost curve of configs/scale.yaml)');
  let plan;
  try {
    plan = planScale(options);
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  const progress = progressFor();
  const t0 = performance.now();
  const { docs: source, sources } = await readSources(args, progress);
  const model = buildTextModel(source);
  source.length = 0;
  mkdirSync(args.out, { recursive: true });
  // Level 1: the file is read once or twice, and level 6 would take longer than generating the text.
  const gzip = createGzip({ level: 1 });
  const file = createWriteStream(join(args.out, SCALE_FILES.corpus));
  gzip.pipe(file);
  let chars = 0;
  let bytes = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  let n = 0;
  for (const d of scaleDocuments(model, plan)) {
    const line = JSON.stringify({ id: d.id, text: d.text });
    pending.push(line, '\n');
    pendingLength += line.length + 1;
    chars += d.text.length;
    if (++n % 1000 === 0) progress.update('writing documents', n, options.documents);
    if (pendingLength >= 1 << 20) {
      const chunk = Buffer.from(pending.join(''), 'utf8');
      bytes += chunk.length;
      pending = [];
      pendingLength = 0;
      if (!gzip.write(chunk)) await once(gzip, 'drain');
    }
  }
  const last = Buffer.from(pending.join(''), 'utf8');
  bytes += last.length;
  gzip.end(last);
  await finished(file);
  const oracle = oraclePairs(plan);
  writeFileSync(join(args.out, SCALE_FILES.oracle), toCsv(['doc_a', 'doc_b', 'edit_rate_a', 'edit_rate_b'], oracle.map((p) => [p.a, p.b, p.rateA, p.rateB])));
  const manifest = {
    generator: 'bench synth scale',
    seed: options.seed,
    options: {
      documents: options.documents,
      copies: options.copies,
      edit_rates: options.editRates,
      boilerplate: options.boilerplate,
      max_share: options.maxShare,
      ...(options.text === 'words' ? {} : { text: options.text }),
      ...(options.templates === 0 ? {} : { templates: options.templates }),
    },
    sources,
    model: { words: model.words.length, tokens: model.tokens.length, tokens_left_out: model.leftOut, lines: model.passages.length },
    documents: options.documents,
    base_documents: plan.base,
    copies: options.documents - plan.base,
    clusters: plan.clusters,
    shared_passages: plan.passages,
    documents_with_a_passage: plan.passageOf.reduce((s, p) => s + (p >= 0 ? 1 : 0), 0),
    oracle_pairs: oracle.length,
    text_chars: chars,
    jsonl_bytes: bytes,
    files: SCALE_FILES,
  };
  writeFileSync(join(args.out, SCALE_FILES.manifest), JSON.stringify(manifest, null, 2) + '\n');
  progress.done();
  process.stdout.write(
    `${grouped(options.documents)} documents (${grouped(plan.base)} base, ${grouped(manifest.copies)} copies in ${grouped(plan.clusters)} clusters), ` +
      `${(chars / 1e6).toFixed(1)} M characters of text, ${grouped(oracle.length)} oracle pairs, in ${((performance.now() - t0) / 1000).toFixed(1)} s -> ${args.out}\n`,
  );
}
