/**
 * Documents as every detector sees them: the corpus after reading, skipping and subsetting,
 * indexed 0..n-1 in reading order. Readers yield `Document`s; the runner collects them into a
 * `DocumentSet` that the backends hand to plans (as the `documents` dataset or, for a local
 * kernel, as arrays).
 */

/** One document as a reader yields it (docs/design.md §3.1). */
export interface Document {
  /** The collection's own id: DOCNO, WARC-TREC-ID, Message-ID or `<group>/<NNNNN>`. */
  readonly id: string;
  readonly text: string;
  /** Fields a reader carries beside the text (a mail's subject, a page's title or URL). */
  readonly meta?: Readonly<Record<string, string>>;
}

/** The documents of a run, by index. */
export interface DocumentSet {
  readonly ids: readonly string[];
  readonly texts: readonly string[];
  /** Each document's `meta`, same indexes; absent when the reader carries none. */
  readonly meta?: readonly (Readonly<Record<string, string>> | undefined)[];
}
