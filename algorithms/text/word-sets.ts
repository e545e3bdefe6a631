/**
 * Each document's distinct words (of its normalized text) as ids into the corpus vocabulary, for
 * in-process kernels that need document frequencies and word sets (I-Match; any detector over
 * bags of words).
 *
 * Workers read contiguous slices of the corpus (`wordSetSlice`), each with a vocabulary of its
 * own; the main thread merges them (`mergeWordSlices`) into one vocabulary in JavaScript string
 * order, so that a word's id is its rank: ids are the same however the corpus was sliced, and a
 * document's ids in ascending order are its words in sorted order (what I-Match signs).
 */
import { sharedU32 } from './chunks.ts';
import { normalize } from './normalize.ts';
import { words } from './tokens.ts';

export interface WordSlicePayload {
  readonly texts: readonly string[];
}

/** A slice's word sets: ids into the slice's own vocabulary, CSR over its documents. */
export interface WordSlice {
  readonly vocabulary: string[];
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
}

/** Runs in a worker thread: the distinct words of each document of one slice. */
export function wordSetSlice(p: WordSlicePayload): WordSlice {
  const index = new Map<string, number>();
  const vocabulary: string[] = [];
  const docStart = new Uint32Array(p.texts.length + 1);
  let ids = new Uint32Array(1 << 16);
  let n = 0;
  const seen = new Set<number>();
  p.texts.forEach((text, d) => {
    seen.clear();
    for (const w of words(normalize(text))) {
      let id = index.get(w);
      if (id === undefined) {
        id = vocabulary.length;
        index.set(w, id);
        vocabulary.push(w);
      }
      if (seen.has(id)) continue;
      seen.add(id);
      if (n === ids.length) {
        const grown = new Uint32Array(2 * ids.length);
        grown.set(ids);
        ids = grown;
      }
      ids[n++] = id;
    }
    docStart[d + 1] = n;
  });
  return { vocabulary, docStart, ids: ids.slice(0, n) };
}

export interface WordSets {
  readonly docs: number;
  /** every distinct word of the corpus, in string order: a word's id is its index */
  readonly vocabulary: readonly string[];
  /** CSR over documents: document d's words are ids[docStart[d]..docStart[d+1]), ascending */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  /** documents holding each word */
  readonly df: Uint32Array;
}

/** Merges the slices of consecutive document ranges, in corpus order. */
export function mergeWordSlices(slices: readonly WordSlice[]): WordSets {
  const seen = new Map<string, number>();
  const first: string[] = [];
  for (const s of slices) {
    for (const w of s.vocabulary) {
      if (!seen.has(w)) {
        seen.set(w, first.length);
        first.push(w);
      }
    }
  }
  const order = Array.from(first.keys()).sort((x, y) => ((first[x] as string) < (first[y] as string) ? -1 : 1));
  const vocabulary = order.map((i) => first[i] as string);
  const rank = new Uint32Array(first.length);
  order.forEach((i, r) => (rank[i] = r));

  const docs = slices.reduce((s, x) => s + x.docStart.length - 1, 0);
  const entries = slices.reduce((s, x) => s + x.ids.length, 0);
  const docStart = sharedU32(docs + 1);
  const ids = sharedU32(entries);
  const df = new Uint32Array(vocabulary.length);
  let d = 0;
  let at = 0;
  for (const s of slices) {
    const toGlobal = s.vocabulary.map((w) => rank[seen.get(w) as number] as number);
    for (let k = 0; k + 1 < s.docStart.length; k++) {
      const from = at;
      for (let e = s.docStart[k] as number; e < (s.docStart[k + 1] as number); e++) {
        const id = toGlobal[s.ids[e] as number] as number;
        ids[at++] = id;
        df[id] = (df[id] as number) + 1;
      }
      ids.subarray(from, at).sort();
      docStart[++d] = at;
    }
  }
  return { docs, vocabulary, docStart, ids, df };
}
