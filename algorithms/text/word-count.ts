/**
 * How many words a document has, as Ye et al. count them to put documents into size groups
 * (their Table 3): the words of the normalized text (docs/design.md §4.1: HTML gone,
 * lower-cased, every run of non-word characters one space). The evaluation's size groups
 * (harness/evaluate/size-groups.ts) and Broder's size-adaptive sampling by words count alike,
 * so that a document is in the same group for both.
 */
import type { StoreCodec } from '../../contract/index.ts';
import { codeDigest } from './code-digest.ts';
import { normalizedWordCount } from './normalize.ts';

/** This folder, whose code the stored values' keys digest (made once: a key is asked for each explanation too). */
const THIS_FOLDER = new URL('./', import.meta.url);

const SPACE = 0x20;

/** The words of a normalized text: runs of non-space characters. */
export function wordCount(normalized: string): number {
  let count = 0;
  let previous = SPACE;
  for (let i = 0; i < normalized.length; i++) {
    const c = normalized.charCodeAt(i);
    if (c !== SPACE && previous === SPACE) count++;
    previous = c;
  }
  return count;
}

/** The words of a document's text, after normalization (counted without building the normalized text). */
export function documentWords(text: string): number {
  return normalizedWordCount(text);
}

/** Every document's `documentWords`, as `KernelContext.stored` and the harness's store keep them. */
export function wordCountsCodec(): StoreCodec<Uint32Array> {
  return {
    key: `document-words:${codeDigest(THIS_FOLDER)}`,
    describe: 'word counts',
    encode: (words) => ({ meta: {}, arrays: [words] }),
    decode: ({ arrays }) => arrays[0] as Uint32Array,
  };
}
