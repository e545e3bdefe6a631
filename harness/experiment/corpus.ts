/**
 * Reading an experiment's corpus: the reader (corpus/read.ts), then the subset of the config
 * (TREC qrels or runs, trec/subset.ts), in one pass over the collection. Shared by `bench run`
 * and `bench corpus`, so both count and skip the same way.
 */
import { setImmediate } from 'node:timers/promises';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentSet, DocumentTexts } from '../../contract/index.ts';
import { SpilledTextsWriter, utf8Bytes } from '../corpus/spilled-texts.ts';
import type { CorpusCacheOptions } from '../corpus/cache.ts';
import type { FileSetFingerprint } from '../corpus/fingerprints.ts';
import { newCorpusStats, readCorpus, type CorpusStats } from '../corpus/read.ts';
import { removeExactDuplicates } from '../corpus/exact-duplicates.ts';
import { readerOptionsOf } from '../corpus/registry.ts';
import { buildSubset, type Subset } from '../trec/subset.ts';
import type { Document, Skip } from '../corpus/types.ts';
import type { ReadThreads } from '../runtime/read-threads.ts';
import { DataError } from '../errors.ts';
import type { Experiment } from './types.ts';

export interface CorpusRead {
  readonly docs: DocumentSet;
  readonly stats: CorpusStats;
  /** present when the config has `corpus.subset` */
  readonly subset?: {
    readonly spec: Subset;
    /** documents the reader produced that the subset does not select */
    readonly outside: number;
    /** subset documents the collection does not contain */
    readonly missing: number;
  };
  readonly seconds: number;
  /** the UTF-8 bytes of the texts `docs` holds */
  readonly textBytes: number;
  /** where `docs` holds them: in memory, or in the spill's file */
  readonly textsIn: 'memory' | 'file';
  /** with `corpus.exact_duplicates: remove`: the groups of identical texts, by document id, and how many documents were removed */
  readonly exactDuplicates?: { readonly groups: readonly { readonly kept: string; readonly removed: readonly string[] }[]; readonly removed: number };
}

export interface CorpusReadOptions {
  readonly signal?: AbortSignal;
  /** Where the reader's parse threads come from (the run's runtime). */
  readonly threads?: ReadThreads;
  /** The corpus cache to replay from or fill (corpus/cache.ts); none when absent. */
  readonly cache?: CorpusCacheOptions;
  /** The run's fingerprints of its inputs (inputs.ts), so that the cache need not take the corpus's again. */
  readonly inputs?: readonly FileSetFingerprint[];
  /**
   * Texts beyond `aboveChars` UTF-16 code units go to a file in `dir` (made if missing), with
   * those read before, instead of staying in memory (corpus/spilled-texts.ts). The file has one
   * owner: the folder's, which removes it.
   */
  readonly spill?: { readonly dir: string; readonly aboveChars: number };
  onDocument?(count: number): void;
}

/** Reads `exp.corpus` (all it needs of the experiment: `bench explain` has only a run's corpus section). */
export async function readExperimentCorpus(exp: Pick<Experiment, 'corpus'>, opts: CorpusReadOptions = {}): Promise<CorpusRead> {
  const t0 = performance.now();
  const c = exp.corpus;
  const stats = newCorpusStats();
  const subset = c.subset ? await buildSubset(c.subset, { skip: (s: Skip) => recordSkip(stats, s, c.strict) }) : undefined;
  const ids: string[] = [];
  const held = new HeldTexts(opts.spill);
  const meta: (Readonly<Record<string, string>> | undefined)[] = [];
  let withMeta = 0;
  let outside = 0;
  const source = readCorpus(
    {
      format: c.format,
      ...(c.path !== undefined ? { path: c.path } : {}),
      options: readerOptionsOf(c),
      // With a subset, the limit counts selected documents, so it is applied here.
      ...(c.limit !== undefined && !subset ? { limit: c.limit } : {}),
      strict: c.strict,
      ...(opts.threads ? { threads: opts.threads } : {}),
      ...(opts.cache ? { cache: opts.cache } : {}),
      ...(opts.cache && opts.inputs?.[0] ? { inputs: opts.inputs[0] } : {}),
    },
    stats,
  );
  let yielded = performance.now();
  let finished = false;
  try {
    for await (const d of source as AsyncIterable<Document>) {
      // Readers that read synchronously between awaits never let timers and signal handlers run:
      // give the event loop a turn every 50 ms, so that Ctrl-C stops the reading at once.
      if (performance.now() - yielded > 50) {
        await setImmediate();
        yielded = performance.now();
      }
      opts.signal?.throwIfAborted();
      if (subset && !subset.ids.has(d.id)) {
        outside++;
        continue;
      }
      ids.push(d.id);
      held.add(d.text);
      meta.push(d.meta);
      if (d.meta) withMeta++;
      opts.onDocument?.(ids.length);
      if (subset && c.limit !== undefined && ids.length >= c.limit) break;
    }
    finished = true;
  } finally {
    if (!finished) held.discard();
  }
  const texts = held.finish();
  if (subset && ids.length === 0) {
    throw new DataError(
      `${c.path ?? c.format}: none of the ${subset.ids.size} documents the subset selects is in the collection (${stats.kept} documents read)`,
    );
  }
  const read: DocumentSet = withMeta > 0 ? { ids, texts, meta } : { ids, texts };
  // Exact duplicates first (Ye et al. 4.2): every later step sees each text once.
  const dedup = c.exact_duplicates === 'remove' ? removeExactDuplicates(read) : undefined;
  return {
    docs: dedup ? dedup.docs : read,
    ...(dedup ? { exactDuplicates: { groups: dedup.groups.map((g) => ({ kept: ids[g.kept] as string, removed: g.removed.map((i) => ids[i] as string) })), removed: dedup.removed } } : {}),
    stats,
    ...(subset ? { subset: { spec: subset, outside, missing: c.limit === undefined ? subset.ids.size - ids.length : 0 } } : {}),
    seconds: (performance.now() - t0) / 1000,
    textBytes: dedup ? utf8Bytes(dedup.docs.texts) : held.utf8Bytes,
    textsIn: held.spilled ? 'file' : 'memory',
  };
}

/** The texts as they are read: in an array, until they pass the spill's size, then in a file. */
class HeldTexts {
  private readonly inMemory: string[] = [];
  private chars = 0;
  private writer: SpilledTextsWriter | undefined;
  private bytes = 0;

  constructor(private readonly spill: CorpusReadOptions['spill']) {}

  get spilled(): boolean {
    return this.writer !== undefined;
  }

  get utf8Bytes(): number {
    return this.writer ? this.writer.utf8Bytes : this.bytes;
  }

  add(text: string): void {
    if (this.writer) {
      this.writer.add(text);
      return;
    }
    this.inMemory.push(text);
    this.bytes += Buffer.byteLength(text, 'utf8');
    this.chars += text.length;
    if (this.spill && this.chars > this.spill.aboveChars) {
      mkdirSync(this.spill.dir, { recursive: true });
      this.writer = new SpilledTextsWriter(join(this.spill.dir, 'texts'));
      for (const t of this.inMemory) this.writer.add(t);
      this.inMemory.length = 0;
    }
  }

  finish(): DocumentTexts {
    return this.writer ? this.writer.finish() : this.inMemory;
  }

  discard(): void {
    this.writer?.discard();
  }
}

function recordSkip(stats: CorpusStats, s: Skip, strict: boolean): void {
  if (strict) throw new DataError(`${s.file}${s.offset !== undefined ? `: byte ${s.offset}` : ''}: ${s.detail} (${s.reason}, strict mode)`);
  const counts = s.kind === 'skipped' ? stats.skipped : stats.recovered;
  counts[s.reason] = (counts[s.reason] ?? 0) + 1;
  stats.skips.push(s);
}
