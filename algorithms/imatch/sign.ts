/**
 * The signatures record of a document (what imatch-signatures emits and the kernel's table
 * holds), and the kernel's signing of a slice of documents on a worker thread.
 */
import { inIdfRange, Lexicons, type IdfRange, type LexiconRandomization } from '../text/lexicon.ts';

/** A field of a signatures record when the lexicon holds none of the document's words. */
export const NO_SIGNATURE = '-';

/** The record value: the K+1 signatures separated by spaces, `-` for none. */
export function encodeSignatures(sigs: readonly (string | null)[]): string {
  return sigs.map((s) => s ?? NO_SIGNATURE).join(' ');
}

export interface SignPayload {
  /** the corpus vocabulary in string order joined by "\n" (`word-sets.ts`) */
  readonly words: string;
  /** documents holding each word */
  readonly df: Uint32Array;
  readonly docs: number;
  readonly range: IdfRange;
  readonly randomization: LexiconRandomization;
  /** each document's word ids, ascending (CSR, on shared memory) */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/**
 * Runs in a worker thread: the signatures record of each document in [from, to), joined by
 * "\n", an empty line for a document without a signature. The lexicons are built here from the
 * frequencies, as the signatures job's mappers build them from the df table.
 */
export function signSlice(p: SignPayload): string {
  const vocabulary = p.words === '' ? [] : p.words.split('\n');
  const base: string[] = [];
  const lexiconIndex = new Int32Array(vocabulary.length).fill(-1);
  vocabulary.forEach((w, id) => {
    if (!inIdfRange(p.df[id] as number, p.docs, p.range)) return;
    lexiconIndex[id] = base.length;
    base.push(w);
  });
  const lexicons = new Lexicons(base, p.randomization);
  // the vocabulary is in string order, so the lexicon keeps `base` as given: index = position
  if (lexicons.terms !== base) throw new Error('the vocabulary is not in string order');
  const lines: string[] = [];
  const held: number[] = [];
  for (let d = p.from; d < p.to; d++) {
    held.length = 0;
    for (let e = p.docStart[d] as number; e < (p.docStart[d + 1] as number); e++) {
      const i = lexiconIndex[p.ids[e] as number] as number;
      if (i >= 0) held.push(i);
    }
    const sigs = lexicons.signaturesOfIndexes(held);
    lines.push(sigs[0] === null ? '' : encodeSignatures(sigs));
  }
  return lines.join('\n');
}
