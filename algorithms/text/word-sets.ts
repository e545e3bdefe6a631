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
import { normalize } from './normalize.ts';

export interface WordSlicePayload {
  readonly texts: readonly string[];
}

/** A slice's word sets: ids into the slice's own vocabulary, CSR over its documents. */
export interface WordSlice {
  /** the slice's distinct words in string order, joined by "\n" (one string crosses threads in one copy) */
  readonly words: string;
  /** CSR over the slice's documents: each document's word ids (ranks in `words`), ascending */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
}

const NEWLINE = '\n';

/**
 * Runs in a worker thread: the distinct words of each document of one slice.
 *
 * Words are looked up straight from the normalized text in an open-addressing table (FNV-1a over
 * the code units, compared in place), so a word makes a string only the first time the slice
 * meets it: a Map keyed by word strings would make and hash 1.9 M strings for the bundled corpus
 * and takes three times as long.
 */
export function wordSetSlice(p: WordSlicePayload): WordSlice {
  const t = new WordTable();
  const docStart = new Uint32Array(p.texts.length + 1);
  let ids: Uint32Array = new Uint32Array(1 << 16);
  let n = 0;
  for (let d = 0; d < p.texts.length; d++) {
    const s = normalize(p.texts[d] as string);
    const len = s.length;
    let i = 0;
    while (i < len) {
      if (s.charCodeAt(i) === SPACE) {
        i++;
        continue;
      }
      const from = i;
      let h = 0x811c9dc5;
      for (; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c === SPACE) break;
        h = Math.imul(h ^ c, 0x01000193);
      }
      const id = t.idOf(s, from, i, h >>> 0);
      if (t.lastDoc[id] === d) continue;
      t.lastDoc[id] = d;
      if (n === ids.length) ids = grownU32(ids);
      ids[n++] = id;
    }
    docStart[d + 1] = n;
  }
  // Renumber by rank in string order and sort each document's ids here, on the worker, so that
  // the merge is a linear pass: a slice's ranks map to corpus ranks monotonically.
  const sorted = [...t.vocabulary].sort();
  const rank = new Uint32Array(sorted.length);
  const order = new Map<string, number>();
  sorted.forEach((w, r) => order.set(w, r));
  t.vocabulary.forEach((w, id) => (rank[id] = order.get(w) as number));
  const out = ids.slice(0, n);
  for (let e = 0; e < n; e++) out[e] = rank[out[e] as number] as number;
  for (let d = 0; d < p.texts.length; d++) out.subarray(docStart[d], docStart[d + 1]).sort();
  return { words: sorted.join(NEWLINE), docStart, ids: out };
}

/** Words by id, found by hash and compared in place in the text. */
class WordTable {
  readonly vocabulary: string[] = [];
  hashes: Uint32Array = new Uint32Array(1 << 12);
  /** the last document that held each word, for de-duplication within a document */
  lastDoc: Int32Array = new Int32Array(1 << 12);
  private slots: Int32Array = new Int32Array(1 << 13).fill(-1);
  private mask = (1 << 13) - 1;

  /** The id of s[from, to), whose hash is h; a new id (and string) the first time. */
  idOf(s: string, from: number, to: number, h: number): number {
    const slots = this.slots;
    let slot = h & this.mask;
    for (;;) {
      const at = slots[slot] as number;
      if (at === -1) break;
      if (this.hashes[at] === h && sameWord(this.vocabulary[at] as string, s, from, to)) return at;
      slot = (slot + 1) & this.mask;
    }
    const id = this.vocabulary.length;
    this.vocabulary.push(s.slice(from, to));
    if (id === this.hashes.length) {
      this.hashes = grownU32(this.hashes);
      const l = new Int32Array(2 * this.lastDoc.length);
      l.set(this.lastDoc);
      this.lastDoc = l;
    }
    this.hashes[id] = h;
    this.lastDoc[id] = -1;
    slots[slot] = id;
    if (2 * this.vocabulary.length > slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const bigger = new Int32Array(this.slots.length * 2).fill(-1);
    const m = bigger.length - 1;
    for (let id = 0; id < this.vocabulary.length; id++) {
      let slot = (this.hashes[id] as number) & m;
      while (bigger[slot] !== -1) slot = (slot + 1) & m;
      bigger[slot] = id;
    }
    this.slots = bigger;
    this.mask = m;
  }
}

const SPACE = 0x20;

function sameWord(word: string, s: string, from: number, to: number): boolean {
  if (word.length !== to - from) return false;
  for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) !== s.charCodeAt(from + k)) return false;
  return true;
}

function grownU32(a: Uint32Array): Uint32Array {
  const b: Uint32Array = new Uint32Array(2 * a.length);
  b.set(a);
  return b;
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
  const lists = slices.map((s) => (s.words === '' ? [] : s.words.split(NEWLINE)));
  // k-way merge of the sorted vocabularies; toCorpus[k][local rank] = corpus rank
  const toCorpus = lists.map((l) => new Uint32Array(l.length));
  const heads = new Array<number>(lists.length).fill(0);
  const vocabulary: string[] = [];
  for (;;) {
    let least: string | undefined;
    for (let k = 0; k < lists.length; k++) {
      const w = (lists[k] as string[])[heads[k] as number];
      if (w !== undefined && (least === undefined || w < least)) least = w;
    }
    if (least === undefined) break;
    const r = vocabulary.length;
    vocabulary.push(least);
    for (let k = 0; k < lists.length; k++) {
      if ((lists[k] as string[])[heads[k] as number] === least) (toCorpus[k] as Uint32Array)[(heads[k] as number)++] = r;
    }
  }

  const docs = slices.reduce((s, x) => s + x.docStart.length - 1, 0);
  const entries = slices.reduce((s, x) => s + x.ids.length, 0);
  // on shared memory: worker threads read them without a copy (and a transfer would detach them)
  const docStart = sharedExact(docs + 1);
  const ids = sharedExact(entries);
  const df = sharedExact(vocabulary.length);
  let d = 0;
  let at = 0;
  slices.forEach((s, k) => {
    const map = toCorpus[k] as Uint32Array;
    for (let e = 0; e < s.ids.length; e++) {
      const id = map[s.ids[e] as number] as number;
      ids[at + e] = id;
      df[id] = (df[id] as number) + 1;
    }
    for (let x = 1; x < s.docStart.length; x++) docStart[++d] = at + (s.docStart[x] as number);
    at += s.ids.length;
  });
  return { docs, vocabulary, docStart, ids, df };
}

function sharedExact(length: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(4 * length));
}
