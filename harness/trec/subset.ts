/**
 * The documents of an experiment's subset, from the config's `corpus.subset`:
 * - `{ qrels, relevant_only: true }`: the documents judged relevant (grade > 0) for any
 *   topic (Nikkhoo 3.2: the relevant GOV2 documents of TB04); with `relevant_only: false`
 *   every judged document;
 * - `{ runs, top }`: for every run file and topic, its first `top` documents in trec_eval
 *   order, united over runs and topics (Nikkhoo 4.1: the topic collections of the Web09 runs).
 *   A `runs` entry that is a folder stands for every file under it, in byte order (how TREC
 *   ships a track's runs: one `input.<tag>.gz` a run), as the studies read them.
 * `byTopic` lists each topic's documents once, in first-seen order (file order for qrels;
 * run by run, rank order for runs). The runner reads the collection once and keeps the
 * documents whose id is in `ids`.
 */
import { DataError } from '../errors.ts';
import { listInputFiles } from '../corpus/files.ts';
import { readQrels, relevantDocs } from './qrels.ts';
import { readRun, topN } from './run.ts';
import type { ReadContext } from '../corpus/types.ts';

export type SubsetSpec = { qrels: string; relevant_only: boolean } | { runs: string[]; top: number };

export interface Subset {
  readonly ids: Set<string>;
  readonly byTopic: Map<string, string[]>;
}

/** Without a context, a skipped run line is an error (the strict reading). */
const strict: ReadContext = {
  skip(s) {
    throw new DataError(`${s.detail} (${s.reason})`);
  },
};

export async function buildSubset(spec: SubsetSpec, ctx: ReadContext = strict): Promise<Subset> {
  if ('qrels' in spec) {
    const qrels = await readQrels(spec.qrels);
    const judged = spec.relevant_only
      ? relevantDocs(qrels)
      : new Map([...qrels].map(([topic, docs]) => [topic, [...docs.keys()]]));
    return withIds(judged, spec.qrels);
  }
  if (!Number.isInteger(spec.top) || spec.top < 1) throw new DataError(`subset.top: ${spec.top} is not a positive integer`);
  const byTopic = new Map<string, Set<string>>();
  for (const path of await runFiles(spec.runs)) {
    const run = await readRun(path, ctx);
    // A file that yields nothing is not a run (a stray README in a runs folder, a wrong path).
    if (run.size === 0) throw new DataError(`${path}: no run lines (topic Q0 docno rank score tag) in this file`);
    for (const [topic, docnos] of topN(run, spec.top)) {
      let docs = byTopic.get(topic);
      if (!docs) byTopic.set(topic, (docs = new Set()));
      for (const d of docnos) docs.add(d);
    }
  }
  return withIds(new Map([...byTopic].map(([topic, docs]) => [topic, [...docs]])), spec.runs.join(', '));
}

/** Every run file the entries name, each once: a file is itself, a folder every file under it. */
export async function runFiles(entries: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const entry of entries) files.push(...(await listInputFiles(entry)));
  return [...new Set(files)];
}

/** An empty subset would run the whole experiment on nothing: that is the user's data, not a result. */
function withIds(byTopic: Map<string, string[]>, source: string): Subset {
  const ids = new Set<string>();
  for (const docs of byTopic.values()) for (const d of docs) ids.add(d);
  if (ids.size === 0) throw new DataError(`${source}: the subset selects no documents`);
  return { ids, byTopic };
}
