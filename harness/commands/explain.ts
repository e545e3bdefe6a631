/**
 * `bench explain RUN VARIANT DOC_A DOC_B`: why a variant of a finished run decided what it did
 * about two documents (issue 26). The run folder gives the variant, its parameters, its score
 * of the pair and the ground truth's parameters; the documents are read again as the run read
 * them (through the corpus cache when it holds them), and everything else is computed again
 * from the two texts (harness/evaluate/explain/pair.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import type { AlgorithmAdapter, StoreCodec } from '../../contract/index.ts';
import { corpusCacheFromEnv } from '../corpus/cache.ts';
import { builtinDetectors, findDetector, type DetectorCatalog } from '../detectors.ts';
import { didYouMean } from '../did-you-mean.ts';
import { UserError } from '../errors.ts';
import { explainPair, type ExplainedVariant, type PairExplanation, type VariantClusters } from '../evaluate/explain/pair.ts';
import { readClusterLabels, readPairLinks } from '../results/cluster-files.ts';
import { renderExplanation } from '../evaluate/explain/render.ts';
import { readExperimentCorpus } from '../experiment/corpus.ts';
import type { CorpusConfig } from '../experiment/types.ts';
import { readRunRecord } from '../report/read-run.ts';
import { storeBesideCorpusCache, ValueStore } from '../runtime/stored-values.ts';
import { keptFilePath } from '../results/output-files.ts';
import { pairScore } from '../results/pair-lookup.ts';
import type { RunRecord, VariantRecord } from '../results/types.ts';

export interface ExplainArgs {
  readonly run: string;
  readonly variant: string;
  readonly docA: string;
  readonly docB: string;
  readonly width?: number;
  /** read the collection, not the corpus cache */
  readonly noCache?: boolean;
}

/** "… did you mean X?" when one is close enough. */
function guess(word: string, known: readonly string[]): string {
  const g = didYouMean(word, known);
  return g === undefined ? '' : `; did you mean ${g}?`;
}

function variantOf(dir: string, run: RunRecord, name: string): VariantRecord {
  const v = run.variants.find((x) => x.name === name);
  if (v) return v;
  const names = run.variants.map((x) => x.name);
  throw new UserError(`${join(dir, 'run.json')}: no variant ${JSON.stringify(name.slice(0, 80))}${guess(name, names)} (${names.length} variants: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})`);
}

async function explained(dir: string, v: VariantRecord, detectors: DetectorCatalog): Promise<ExplainedVariant> {
  const adapter = findDetector(detectors, v.algorithm) as AlgorithmAdapter | undefined;
  if (!adapter) throw new UserError(`${join(dir, 'run.json')}: variant ${v.name}: unknown algorithm ${v.algorithm}`);
  const parsed = adapter.params.safeParse(v.params);
  if (!parsed.success) throw new UserError(`${join(dir, 'run.json')}: variant ${v.name}: its params are not ${v.algorithm}'s: ${parsed.error.issues[0]?.message ?? ''}`);
  return { name: v.name, adapter, params: parsed.data, decisions: v.decisions };
}

/** A clustered variant's clusters and the links they were closed from, read from the run folder, for the chain. */
async function clustersOf(dir: string, v: VariantRecord, index: ReadonlyMap<string, number>, documents: number, threshold: number): Promise<VariantClusters | undefined> {
  if (v.cluster_links === undefined) return undefined;
  const file = v.files.find((f) => f.file.startsWith('clusters/'))?.file;
  if (file === undefined) throw new UserError(`${join(dir, 'run.json')}: variant ${v.name} has clusters but lists no clusters/ file`);
  const pairsFile = v.files.find((f) => f.file.startsWith('pairs/'))?.file ?? `pairs/${v.name}.csv.gz`;
  const [clusterOf, links] = await Promise.all([
    readClusterLabels(join(dir, file), index, documents),
    // The links are the pairs it decided: every pair it reports, or those scoring at least the threshold.
    readPairLinks(join(dir, pairsFile), index, v.decisions.kind === 'every-reported-pair' ? 0 : threshold),
  ]);
  return { clusterOf, links, madeOf: v.cluster_links };
}

/** The explanation of the pair, and both texts (for the text rendering). */
export async function explainFromRun(args: ExplainArgs): Promise<{ explanation: PairExplanation; texts: { a: string; b: string } }> {
  const run = await readRunRecord(args.run);
  const variant = variantOf(args.run, run, args.variant);
  const truth = run.variants.find((x) => x.ground_truth);
  if (!truth) throw new UserError(`${join(args.run, 'run.json')}: the run has no ground truth variant`);
  const detectors = await builtinDetectors([...new Set([variant.algorithm, truth.algorithm])]);
  const [v, t] = await Promise.all([explained(args.run, variant, detectors), explained(args.run, truth, detectors)]);
  const config = run.config as { corpus: CorpusConfig; seed?: number };
  const cache = args.noCache ? undefined : corpusCacheFromEnv(process.env);
  const { docs } = await readExperimentCorpus({ corpus: config.corpus }, cache ? { cache } : {});
  const index = new Map(docs.ids.map((id, i) => [id, i]));
  const at = (id: string): number => {
    const i = index.get(id);
    if (i !== undefined) return i;
    throw new UserError(`${args.run}: no document ${JSON.stringify(id.slice(0, 80))} in the run's ${docs.ids.length} documents${guess(id, docs.ids)}`);
  };
  const ia = at(args.docA);
  const ib = at(args.docB);
  if (ia === ib) throw new UserError(`${args.docA}: the same document twice; name two documents`);
  const [a, b] = ia < ib ? [ia, ib] : [ib, ia];
  const pairsFile = variant.files.find((f) => f.file.startsWith('pairs/'))?.file ?? `pairs/${variant.name}.csv.gz`;
  const score = await pairScore(join(args.run, pairsFile), docs.ids[a] as string, docs.ids[b] as string);
  const clusters = await clustersOf(args.run, variant, index, docs.ids.length, run.evaluate.threshold);
  // The files the variant's run kept (a command's output), read when its evidence asks.
  const kept = (name: string): Uint8Array | undefined => {
    const file = keptFilePath(variant.name, name);
    // Listed but gone (removed by hand): the evidence says the output was not kept.
    return variant.files.some((f) => f.file === file) && existsSync(join(args.run, file)) ? readFileSync(join(args.run, file)) : undefined;
  };
  // What earlier runs kept for these documents (fingerprint features): read, never written.
  const store = cache ? new ValueStore(storeBesideCorpusCache(cache)) : undefined;
  const explanation = await explainPair({
    docs,
    a,
    b,
    variant: v,
    truth: t,
    threshold: run.evaluate.threshold,
    score,
    seed: config.seed ?? 1,
    width: (args.width ?? 100) - 2,
    ...(clusters ? { clusters } : {}),
    kept,
    ...(store ? { storedIfAny: <T>(codec: StoreCodec<T>) => store.peek(docs, codec)?.value } : {}),
  });
  return { explanation, texts: { a: docs.texts.at(a) as string, b: docs.texts.at(b) as string } };
}

interface Argv {
  run: string;
  variant: string;
  a: string;
  b: string;
  json: boolean;
  width: number;
  'corpus-cache': boolean;
}

export const explainCommand: CommandModule<object, Argv> = {
  command: 'explain <run> <variant> <a> <b>',
  describe: 'why a variant of a finished run decided what it did about two documents: sizes, exact resemblance, shared text, the detector’s evidence',
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'a run folder (results/<experiment>/<run-id>)' })
      .positional('variant', { type: 'string', demandOption: true, describe: 'a variant of the run, as metrics.csv names it' })
      .positional('a', { type: 'string', demandOption: true, describe: 'a document id (DOC_A)' })
      .positional('b', { type: 'string', demandOption: true, describe: 'another document id (DOC_B)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the explanation as JSON, for scripts' })
      .option('width', { type: 'number', default: 100, describe: 'columns of the text' })
      .option('corpus-cache', { type: 'boolean', default: true, describe: 'replay the documents from the corpus cache when it holds them (--no-corpus-cache: read the collection)' }),
  handler: async (argv) => {
    const width = Math.max(60, Math.floor(argv.width));
    const r = await explainFromRun({ run: argv.run, variant: argv.variant, docA: argv.a, docB: argv.b, width, noCache: !argv['corpus-cache'] });
    process.stdout.write(argv.json ? `${JSON.stringify(r.explanation, null, 1)}\n` : renderExplanation(r.explanation, r.texts, width));
  },
};
