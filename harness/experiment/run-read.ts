/**
 * The run's read step: the corpus (through the corpus cache when there is one, parsed on the
 * runtime's threads), the documents' words and size groups (counted, or replayed from the
 * stored values), and the oracles the evaluation scores against.
 */
import type { DocumentSet } from '../../contract/index.ts';
import { wordCountsCodec } from '../../algorithms/text/word-count.ts';
import type { CorpusCacheOptions } from '../corpus/cache.ts';
import { loadSpanOracle, type SpanOracle } from '../evaluate/oracle.ts';
import { loadJudgments, type Judgments } from '../evaluate/judgments.ts';
import { loadPlantedOracle, type PlantedOracle } from '../evaluate/planted.ts';
import { loadReplyOracle, type ReplyOracle } from '../evaluate/replies.ts';
import { assignGroups, countDocumentWords, type DocumentSizes } from '../evaluate/size-groups.ts';
import type { Progress } from '../progress.ts';
import { exactDuplicatesTable } from '../results/evaluation-tables.ts';
import type { SliceTable } from '../results/slices-csv.ts';
import type { InputsFingerprint, RunRecord } from '../results/types.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { readExperimentCorpus } from './corpus.ts';
import type { TextsSpill } from './texts-spill.ts';
import type { Experiment } from './types.ts';

export interface ReadOptions {
  readonly runtime: Runtime;
  readonly inputs: InputsFingerprint;
  readonly identifyFilesBy: 'stat' | 'content';
  readonly corpusCache?: CorpusCacheOptions;
  /** where texts go that the run should not hold in memory (texts-spill.ts) */
  readonly spill?: TextsSpill;
  readonly signal: AbortSignal;
  readonly progress: Progress;
}

export interface RunInput {
  readonly docs: DocumentSet;
  /** run.json's `corpus` */
  readonly corpus: RunRecord['corpus'];
  readonly exactDuplicates?: SliceTable;
  /** every document's words and group (`evaluate.size_groups`) */
  readonly sizes: DocumentSizes;
  readonly spanOracle?: SpanOracle;
  readonly replies?: ReplyOracle;
  readonly planted?: PlantedOracle;
  readonly judgments?: Judgments;
}

export async function readRunInput(exp: Experiment, o: ReadOptions): Promise<RunInput> {
  const r = await readExperimentCorpus(exp, {
    // The corpus's fingerprint, the first of the run's inputs (results/inputs.ts inputPaths), by the cache's method.
    inputs: o.inputs.files,
    signal: o.signal,
    threads: o.runtime.reads,
    ...(o.corpusCache ? { cache: { ...o.corpusCache, method: o.identifyFilesBy } } : {}),
    ...(o.spill ? { spill: o.spill } : {}),
    onDocument: (n) => {
      if (n % 500 === 0) o.progress.update('reading documents', n);
    },
  });
  const docs = r.docs;
  // Every variant's evaluation groups documents by their words: counted once, or replayed.
  const words = await o.runtime.stored(docs, wordCountsCodec(), () => countDocumentWords(docs));
  const spanOracle = exp.evaluate.oracle === undefined ? undefined : loadSpanOracle(exp.evaluate.oracle, docs);
  const replies = exp.evaluate.replies === undefined ? undefined : loadReplyOracle(docs, exp.evaluate.replies);
  const planted = exp.evaluate.planted === undefined ? undefined : loadPlantedOracle(exp.evaluate.planted, docs);
  const judgments = exp.evaluate.judgments === undefined ? undefined : loadJudgments(exp.evaluate.judgments, docs);
  return {
    docs,
    corpus: {
      format: exp.corpus.format,
      path: exp.corpus.path ?? null,
      documents: docs.ids.length,
      // The size a cost curve is drawn against (the EMR estimate's CPU-seconds per MB).
      text_bytes: r.textBytes,
      texts: r.textsIn,
      read: r.stats.read,
      skipped: r.stats.skipped,
      recovered: r.stats.recovered,
      skips: r.stats.skips.slice(0, 100),
      read_s: r.seconds,
      cache: r.stats.cache,
      ...(r.subset ? { subset: { selected: r.subset.spec.ids.size, outside: r.subset.outside, missing: r.subset.missing } } : {}),
      ...(r.exactDuplicates ? { exact_duplicates: { groups: r.exactDuplicates.groups.length, removed: r.exactDuplicates.removed } } : {}),
    },
    ...(r.exactDuplicates ? { exactDuplicates: exactDuplicatesTable(r.exactDuplicates.groups) } : {}),
    sizes: assignGroups(words, exp.evaluate.size_groups),
    ...(spanOracle ? { spanOracle } : {}),
    ...(replies ? { replies } : {}),
    ...(planted ? { planted } : {}),
    ...(judgments ? { judgments } : {}),
  };
}
