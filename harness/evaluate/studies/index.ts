/**
 * The TREC studies of Nikkhoo (2010) chapter 4 over an experiment's ground truth, configured
 * by the `studies` section: topic collections (4.1.2, Figures 4.1-4.5) and run-topics (4.1.3,
 * Table 4.1). Each returns CSV tables the runner writes beside metrics.csv and lists in
 * run.json's `tables`. Documents are matched to run lines by id (DOCNO = the document's id).
 */
import type { PairList } from '../../../contract/index.ts';
import type { ReadContext } from '../../corpus/types.ts';
import { DataError } from '../../errors.ts';
import { indexPairs } from './pair-index.ts';
import { prevalenceCsv } from './prevalence.ts';
import { RunFiles } from './run-files.ts';
import { runTopicShares, runTopicSharesCsv } from './run-topics.ts';
import { collectTopics, topicCollectionRows, topicCollectionsCsv } from './topic-collections.ts';

/**
 * Which studies to make, over which runs (paths absolute). The config's `studies` section
 * (experiment/schema.ts) has this shape, so the loaded section is passed as it is.
 */
export interface StudiesSettings {
  readonly topic_collections?: { readonly runs: readonly string[]; readonly top?: number | undefined };
  readonly run_topics?: { readonly runs: readonly string[]; readonly n: readonly number[]; readonly shares: readonly number[] };
}

export interface StudyTable {
  readonly file: string;
  readonly description: string;
  readonly csv: string;
}

export interface StudyInput {
  /** Document ids by index (the corpus after subsetting). */
  readonly ids: readonly string[];
  /** Ground-truth pairs by index, every pair with score > 0. */
  readonly truth: PairList;
  readonly studies: StudiesSettings;
  readonly evaluate: { threshold: number; distribution: readonly number[] };
  /** Where skipped run lines are counted; without it a bad run line is an error (as in trec/subset.ts). */
  readonly ctx?: ReadContext;
}

const strict: ReadContext = {
  skip(s) {
    throw new DataError(`${s.detail} (${s.reason})`);
  },
};

function indexIds(ids: readonly string[]): Map<string, number> {
  const indexOf = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!indexOf.has(id)) indexOf.set(id, i);
  });
  return indexOf;
}

export async function runStudies(input: StudyInput): Promise<StudyTable[]> {
  const { topic_collections: collections, run_topics: runTopics } = input.studies;
  if (collections === undefined && runTopics === undefined) return [];
  const index = indexPairs(input.truth, input.ids.length);
  const indexOf = indexIds(input.ids);
  const files = new RunFiles(input.ctx ?? strict);
  const tables: StudyTable[] = [];

  if (collections !== undefined) {
    const runs = await files.load(collections.runs);
    const topics = collectTopics(
      runs.map((r) => r.run),
      collections.top,
      indexOf,
    );
    const rows = topicCollectionRows(index, topics, input.evaluate.distribution);
    tables.push({
      file: 'topic-collections.csv',
      description:
        'per topic (then their average): documents any run returned for it, and the percentage with a near-duplicate in that topic collection at each RR threshold (Nikkhoo Figures 4.1-4.5)',
      csv: topicCollectionsCsv(rows, input.evaluate.distribution),
    });
  }

  if (runTopics !== undefined) {
    const runs = await files.load(runTopics.runs);
    const shares = runs.flatMap((r) =>
      runTopicShares(index, r.label, r.run, indexOf, runTopics.n, input.evaluate.threshold),
    );
    tables.push(
      {
        file: 'run-topic-shares.csv',
        description: `per run, topic and n: documents of the top n, and how many have a near-duplicate (RR >= ${input.evaluate.threshold}) elsewhere in the same top n`,
        csv: runTopicSharesCsv(shares),
      },
      {
        file: 'run-topic-prevalence.csv',
        description: `percentage of run-topics whose share of top-n documents with a near-duplicate (RR >= ${input.evaluate.threshold}) is at least each share (Nikkhoo Table 4.1)`,
        csv: prevalenceCsv(shares, runTopics.n, runTopics.shares),
      },
    );
  }
  return tables;
}
