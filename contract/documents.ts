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

/**
 * The documents' texts, by index. An array is one. A run whose texts would take too much of its
 * memory budget holds them in a file of its work folder instead (harness/corpus/spilled-texts.ts),
 * read back a window at a time: a loop over every text costs a read of the file, so code that
 * needs only the texts' lengths asks `lengthOf`.
 */
export interface DocumentTexts extends Iterable<string> {
  readonly length: number;
  /** the text of document `index`; undefined outside 0..length-1 */
  at(index: number): string | undefined;
  /** the texts `start..end-1`, as an array of their own (a batch to hand a thread) */
  slice(start?: number, end?: number): string[];
  /** a text's length in UTF-16 code units without reading it, where that is known apart (see `lengthOf`) */
  readonly lengthAt?: (index: number) => number;
}

/** The length of text `index` in UTF-16 code units, without reading a spilled text. */
export function lengthOf(texts: DocumentTexts, index: number): number {
  return texts.lengthAt ? texts.lengthAt(index) : (texts.at(index) as string).length;
}

/** The texts' total length in UTF-16 code units, without reading spilled texts. */
export function totalLength(texts: DocumentTexts): number {
  let n = 0;
  for (let i = 0; i < texts.length; i++) n += lengthOf(texts, i);
  return n;
}

/**
 * `count(text)` of every text, reading one at a time: `Uint32Array.from(texts, f)` would first
 * list every text (a typed array's `from` collects an iterable before it maps), which for texts a
 * file holds is the whole collection in memory.
 */
export function countPerText(texts: DocumentTexts, count: (text: string) => number): Uint32Array {
  const out = new Uint32Array(texts.length);
  let i = 0;
  for (const t of texts) out[i++] = count(t);
  return out;
}

/** The documents of a run, by index. */
export interface DocumentSet {
  readonly ids: readonly string[];
  readonly texts: DocumentTexts;
  /** Each document's `meta`, same indexes; absent when the reader carries none. */
  readonly meta?: readonly (Readonly<Record<string, string>> | undefined)[];
}
