/**
 * What `bench synth scale` takes from a real corpus: its words at their real frequencies, its
 * document lengths, and its lines (to plant as shared passages). New documents drawn from it
 * have the vocabulary, word-length and document-length statistics of real text, while two of
 * them share a run of words only where the builder plants one: a corpus of a million documents
 * can be made from six thousand mails without the quadratic pile of accidental shared text that
 * copying real sentences around would give.
 *
 * Words are the source's whitespace-separated tokens as written (case and punctuation kept).
 * Tokens with a character outside Latin-1 are left out (counted): V8 then keeps every generated
 * text as a one-byte string, so a corpus of 2.5 GB of text takes 2.5 GB of memory, not 5.
 */
import type { Document } from '../../contract/index.ts';

export interface TextModel {
  /** distinct words */
  readonly words: readonly string[];
  /** the source's tokens as indexes into `words`, in order: a random entry is a word at its real frequency */
  readonly tokens: Uint32Array;
  /** words of each source document (those with at least one) */
  readonly lengths: Uint32Array;
  /** distinct real lines of `PASSAGE_WORDS` words, for shared passages */
  readonly passages: readonly string[];
  readonly sourceDocuments: number;
  /** tokens left out: a character outside Latin-1, or longer than `MAX_WORD` */
  readonly leftOut: number;
  /**
   * Where each word occurs in `tokens`: `occurrences[occurrenceStart[w] .. occurrenceStart[w+1])`,
   * for a random walk over the source's word pairs (`walkWords`)
   */
  readonly occurrenceStart: Uint32Array;
  readonly occurrences: Uint32Array;
}

const MAX_WORD = 40;
/** the words a passage (a real line planted in several documents) has */
export const PASSAGE_WORDS = { min: 6, max: 60 } as const;
// Printable Latin-1 without spaces, with at least one letter or digit.
const WORD = /^[\x21-\x7e\xa1-\xff]+$/;
const HAS_ALNUM = /[A-Za-z0-9\xc0-\xff]/;

function usable(token: string): boolean {
  return token.length <= MAX_WORD && WORD.test(token) && HAS_ALNUM.test(token);
}

/** Builds the model from documents in a fixed order (the same documents give the same model). */
export function buildTextModel(docs: Iterable<Document>): TextModel {
  const index = new Map<string, number>();
  const words: string[] = [];
  let tokens = new Uint32Array(1 << 20);
  let n = 0;
  const lengths: number[] = [];
  const lines = new Set<string>();
  let sourceDocuments = 0;
  let leftOut = 0;
  for (const d of docs) {
    sourceDocuments++;
    let length = 0;
    for (const token of d.text.split(/\s+/)) {
      if (token === '') continue;
      if (!usable(token)) {
        leftOut++;
        continue;
      }
      let id = index.get(token);
      if (id === undefined) {
        id = words.length;
        index.set(token, id);
        words.push(token);
      }
      if (n === tokens.length) {
        const t = new Uint32Array(tokens.length * 2);
        t.set(tokens);
        tokens = t;
      }
      tokens[n++] = id;
      length++;
    }
    if (length > 0) lengths.push(length);
    for (const line of d.text.split('\n')) {
      const parts = line.trim().split(/\s+/);
      if (parts.length >= PASSAGE_WORDS.min && parts.length <= PASSAGE_WORDS.max && parts.every(usable)) lines.add(parts.join(' '));
    }
  }
  if (n === 0) throw new Error('synth scale: the source documents have no usable words');
  if (lines.size === 0) throw new Error(`synth scale: the source documents have no line of ${PASSAGE_WORDS.min} to ${PASSAGE_WORDS.max} words to plant as a shared passage`);
  const kept = tokens.slice(0, n);
  const occurrenceStart = new Uint32Array(words.length + 1);
  for (const t of kept) occurrenceStart[t + 1]!++;
  for (let w = 0; w < words.length; w++) occurrenceStart[w + 1] = (occurrenceStart[w + 1] as number) + (occurrenceStart[w] as number);
  const fill = occurrenceStart.slice(0, words.length);
  const occurrences = new Uint32Array(n);
  kept.forEach((t, pos) => (occurrences[fill[t]!++] = pos));
  return { words, tokens: kept, lengths: Uint32Array.from(lengths), passages: [...lines], sourceDocuments, leftOut, occurrenceStart, occurrences };
}

/**
 * `length` words of a random walk over the source's word pairs (a first-order Markov chain of
 * the source's own frequencies, its documents' tokens one stream): from a random token, each next word is the word after a random
 * occurrence of the current one. The text reads like the source a few words at a time, so
 * unrelated documents share short runs as real text does (and char-64 shingles through them,
 * the more, the more common the phrase), unlike words drawn one at a time.
 */
export function walkWords(model: TextModel, random: () => number, length: number): string[] {
  const { tokens, occurrenceStart, occurrences } = model;
  const n = tokens.length;
  const out: string[] = [];
  let pos = Math.floor(random() * n);
  for (let i = 0; i < length; i++) {
    const w = tokens[pos] as number;
    out.push(model.words[w] as string);
    // The stream is read as a ring: the source's last token is followed by its first.
    const next = tokens[pos + 1 < n ? pos + 1 : 0] as number;
    const from = occurrenceStart[next] as number;
    pos = occurrences[from + Math.floor(random() * ((occurrenceStart[next + 1] as number) - from))] as number;
  }
  return out;
}
