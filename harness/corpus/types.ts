/** The document contract every reader yields and every algorithm consumes (contract/documents.ts). */
import type { Document } from '../../contract/index.ts';
import type { ReadThreads } from '../runtime/read-threads.ts';

export type { Document };

/**
 * A record a reader could not turn into a document, or a document it had to read with a
 * fallback. Skips are counted and reported in run.json; `--strict` makes them errors.
 */
export interface Skip {
  /** File the record came from (as given in the config, or relative inside an archive). */
  readonly file: string;
  /** Byte offset of the record in the (uncompressed) file, when the format has one. */
  readonly offset?: number;
  /** Document id, when it could be read. */
  readonly id?: string;
  /** Short stable reason code, e.g. `undecodable-charset`, `missing-docno`, `duplicate-id`. */
  readonly reason: string;
  /** One human sentence. */
  readonly detail: string;
  /** `skipped`: the record is not in the corpus. `recovered`: it is, read with a fallback. */
  readonly kind: 'skipped' | 'recovered';
}

/** What every reader reports through while it streams. */
export interface ReadContext {
  skip(s: Skip): void;
  /**
   * How many threads a reader may parse on (corpus/parallel.ts): 1 parses on the calling
   * thread; when absent, the runtime's choice (runtime/read-threads.ts).
   */
  readonly workers?: number;
  /** Where the reader's threads come from (a run's runtime lends its own); absent: threads of the read's own. */
  readonly threads?: ReadThreads;
}

/**
 * A corpus reader: one per format. It streams documents and never holds the collection in
 * memory. New formats (trecweb, trec, warc, mbox) slot in by adding a module and a line in
 * `harness/corpus/registry.ts`.
 */
export interface CorpusReader<Options = Record<string, unknown>> {
  readonly format: string;
  /** One line for `bench list` and `--help`. */
  readonly description: string;
  /**
   * The fields its documents may carry in `meta` (a detector that needs one the format never
   * carries is a config error); `any` when the data decides (jsonl).
   */
  readonly meta: readonly string[] | 'any';
  read(path: string, options: Options, ctx: ReadContext): AsyncIterable<Document>;
  /** The file or folder `read` reads for `path` (a reader with a built-in corpus resolves it), for the fingerprint of a run's inputs. */
  location?(path: string): string;
  /**
   * The files `read` reads for `path` and `options`, relative to `location`, when the reader
   * knows them before reading (a collection with a file list, beside files it never reads); the
   * fingerprint of a run's inputs then covers these only. Undefined, or absent: every file under
   * `location` (the reader reports a list it cannot read when it reads).
   */
  inputFiles?(path: string, options: Options): Promise<readonly string[] | undefined>;
}
